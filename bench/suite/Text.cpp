//===- Text.cpp - Files, the host's name, markdown cells ------------------===//
#include "Text.h"

#include <fstream>
#include <sstream>

namespace skmd::bench {

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  std::stringstream SS(S);
  for (std::string Item; std::getline(SS, Item, ',');)
    if (!Item.empty())
      Out.push_back(Item);
  return Out;
}

std::string readFile(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return "cannot read " + Path;
  std::stringstream SS;
  SS << In.rdbuf();
  Out = SS.str();
  return "";
}

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind("model name", 0) == 0) {
      size_t Colon = Line.find(':');
      if (Colon != std::string::npos)
        return Line.substr(Line.find_first_not_of(' ', Colon + 1));
    }
  return "unknown CPU";
}

std::string markdownCell(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '|')
      C = C == '\n' ? ' ' : '/';
  return S;
}

} // namespace skmd::bench
