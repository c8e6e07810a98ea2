//===- Trace.cpp - Operations on their engines as a Chrome trace ----------===//

#include "common/Trace.h"
#include "common/ArgSpecs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace skmd::tools {

void writeTrace(const std::string &Path, const std::string &Category,
                const std::vector<TracedOperation> &Ops) {
  nlohmann::json Events = nlohmann::json::array();
  std::vector<std::string> Engines;
  for (int Pid : {1, 2})
    Events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", Pid},
                      {"args", {{"name", Pid == 1 ? "measured" : "predicted"}}}});
  for (size_t I = 0; I < Ops.size(); ++I) {
    const TracedOperation &Op = Ops[I];
    auto Engine = std::find(Engines.begin(), Engines.end(), Op.Engine);
    int Tid = int(Engine - Engines.begin());
    if (Engine == Engines.end()) {
      Engines.push_back(Op.Engine);
      for (int Pid : {1, 2})
        Events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", Pid}, {"tid", Tid},
                          {"args", {{"name", Op.Engine}}}});
    }
    auto Span = [&](int Pid, double At, double End) {
      Events.push_back({{"name", Op.Label}, {"cat", Category}, {"ph", "X"}, {"pid", Pid},
                        {"tid", Tid}, {"ts", At * 1000}, {"dur", (End - At) * 1000},
                        {"args", {{"operation", I}}}});
    };
    if (Op.Ran)
      Span(1, Op.StartMs, Op.EndMs);
    if (Op.PredictedEndMs >= 0)
      Span(2, Op.PredictedStartMs, Op.PredictedEndMs);
  }
  nlohmann::json Doc = {{"traceEvents", Events}, {"displayTimeUnit", "ms"}};
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp);
    Out << Doc.dump(1) << "\n";
    if (!Out) {
      std::remove(Tmp.c_str());
      die("cannot write the trace to " + Path);
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::remove(Tmp.c_str());
    die("cannot write the trace to " + Path);
  }
}

} // namespace skmd::tools
