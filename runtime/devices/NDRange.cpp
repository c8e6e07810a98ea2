//===- NDRange.cpp - A launch's geometry in work-groups -------------------===//
#include "devices/NDRange.h"

#include <algorithm>

namespace skmd {

namespace {

class Splitter {
public:
  Splitter(const NDRange &R, const GridLimits &Limits)
      : NX(R.NumGroups[0]), NY(R.NumGroups[1]), Plane(NX * NY), Limits(Limits) {}

  /// [From, To) in the range form, in launches of at most the limit.
  void range(uint64_t From, uint64_t To) {
    for (; From < To; From += Limits.Max[0]) {
      RangeLaunch L;
      L.First = From;
      L.Grid = {std::min(To - From, Limits.Max[0]), 1, 1};
      Out.push_back(L);
    }
  }

  /// The box of \p Grid groups whose first, flattened, is \p From, in
  /// launches split in its last dimension above 1 where that exceeds the
  /// limit (the others are within it).
  void box(uint64_t From, std::array<uint64_t, 3> Grid) {
    unsigned Last = Grid[2] > 1 ? 2 : Grid[1] > 1 ? 1 : 0;
    // Groups in one step of the last dimension.
    uint64_t Step = Last == 0 ? 1 : Last == 1 ? Grid[0] : Grid[0] * Grid[1];
    for (uint64_t Done = 0; Done < Grid[Last]; Done += Limits.Max[Last]) {
      RangeLaunch L;
      L.F = RangeLaunch::Box;
      L.First = From + Done * Step;
      L.Grid = Grid;
      L.Grid[Last] = std::min(Grid[Last] - Done, Limits.Max[Last]);
      L.Base = {L.First % NX, L.First / NX % NY, L.First / Plane};
      Out.push_back(L);
    }
  }

  /// [From, To): a box if it lies in one row, else the range form.
  void piece(uint64_t From, uint64_t To) {
    if (From >= To)
      return;
    if (From / NX == (To - 1) / NX)
      box(From, {To - From, 1, 1});
    else
      range(From, To);
  }

  const uint64_t NX, NY, Plane;
  const GridLimits &Limits;
  std::vector<RangeLaunch> Out;
};

} // namespace

std::vector<RangeLaunch> splitIntoLaunches(const NDRange &R, uint64_t First, uint64_t Count,
                                           bool Boxes, const GridLimits &Limits) {
  Splitter S(R, Limits);
  const uint64_t End = First + Count, NX = S.NX, NY = S.NY, Plane = S.Plane;
  if (!Boxes || Count == 0) {
    S.range(First, End);
    return S.Out;
  }
  if (NY * R.NumGroups[2] == 1) {
    // A 1-D grid: one row, one box.
    S.box(First, {Count, 1, 1});
    return S.Out;
  }
  if (NX > Limits.Max[0]) {
    S.range(First, End);
    return S.Out;
  }
  // The whole rows, [Begin, Stop), and among them the one stretch a box
  // takes: rows of one plane, or whole planes.
  const uint64_t Begin = (First + NX - 1) / NX * NX, Stop = End / NX * NX;
  if (Begin >= Stop) {
    // No whole row: the end of one, the start of the next.
    S.piece(First, std::min(Begin, End));
    S.piece(Begin, End);
    return S.Out;
  }
  uint64_t BoxBegin = Begin, BoxEnd = Stop;
  bool Planes = false;
  if (Begin / Plane != (Stop - 1) / Plane) {
    const uint64_t PlanesBegin = (Begin + Plane - 1) / Plane * Plane;
    const uint64_t PlanesEnd = Stop / Plane * Plane;
    // Rows of the first plane, whole planes (only where a plane's rows fit
    // a launch), rows of the last plane: the largest.
    struct Stretch {
      uint64_t Begin, End;
      bool Planes;
    };
    Stretch Best{Begin, PlanesBegin, false};
    if (NY <= Limits.Max[1] && PlanesEnd - PlanesBegin > Best.End - Best.Begin)
      Best = {PlanesBegin, PlanesEnd, true};
    if (Stop - PlanesEnd > Best.End - Best.Begin)
      Best = {PlanesEnd, Stop, false};
    BoxBegin = Best.Begin;
    BoxEnd = Best.End;
    Planes = Best.Planes;
  }
  if (BoxBegin == BoxEnd) {
    S.range(First, End);
    return S.Out;
  }
  S.piece(First, BoxBegin);
  if (Planes)
    S.box(BoxBegin, {NX, NY, (BoxEnd - BoxBegin) / Plane});
  else
    S.box(BoxBegin, {NX, (BoxEnd - BoxBegin) / NX, 1});
  S.piece(BoxEnd, End);
  return S.Out;
}

} // namespace skmd
