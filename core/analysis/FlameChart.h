#pragma once
// The general timeline (flame chart): every slice of a run on rows — the
// phases, module spans nested by depth, ops nested by depth, then GPU work
// per device stream and CUDA API calls per host thread. Slices of one row
// never overlap (one that would spills to the next row down), so a row is
// sorted by start and by end, and the level of detail below visits at most
// a few boxes per pixel whatever the number of slices (O(pixels · log n)):
// the view stays fluid at 10 M events. Qt-free; the widget only paints.

#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace mvp {

enum class FlameKind : uint8_t { Phase, Module, Op, Device, Api };

struct FlameRow {
    FlameKind kind = FlameKind::Op;
    int depth = 0;                     // nesting depth within its kind (0 = outermost)
    std::string label;                 // "modules 0", "ops 2", "GPU 0 stream 7"
    std::vector<int64_t> starts, ends; // ns from the run's origin, sorted
    std::vector<uint32_t> names;       // FlameChart::names index, per slice
    std::vector<int64_t> ids;          // span id, op id, activity id or phase index
};

struct FlameChart {
    std::vector<std::string> names; // interned slice names
    std::vector<FlameRow> rows;     // in display order
    int64_t startNs = 0, endNs = 0;
    size_t sliceCount() const;
    // The module of each span id, for selection shared with the module tree.
    std::vector<std::pair<int64_t, int64_t>> spanModules; // (span id, module id), by span id
    int64_t moduleOfSpan(int64_t span) const;             // 0 if unknown
};

// Collects slices row by row; ops and device activity may arrive in any
// order (they are streamed from the session).
class FlameChartBuilder {
public:
    FlameChartBuilder(const std::vector<PhaseRow>& phases, const std::vector<ModuleRow>& modules,
                      const std::vector<SpanRow>& spans);
    void addOp(const OpRow& op);
    void addActivity(const DeviceActivityRow& a);
    FlameChart finish();

private:
    struct Slice {
        int64_t start = 0, end = 0;
        uint32_t id = 0, parent = 0, name = 0; // ids ≤ 2³²; parent 0 = none
        uint16_t depth = 0;                    // nesting depth among ops
    };
    uint32_t intern(const std::string& name);
    std::vector<Slice> ops_;
    std::vector<std::pair<std::string, Slice>> activities_; // (row label, slice)
    FlameChart chart_;
    std::unordered_map<std::string, uint32_t> nameIds_;
};

// One drawn box: a slice, or several narrower than a pixel folded together.
struct FlameBox {
    int64_t start = 0, end = 0;
    size_t first = 0; // index of its first slice in the row
    int count = 1;    // slices folded into it
};

// The boxes of `row` intersecting [from, to] at `nsPerPixel`: a slice at
// least a pixel wide is its own box; runs of thinner ones fold into one box
// per pixel they touch.
void flameBoxes(const FlameRow& row, int64_t from, int64_t to, double nsPerPixel,
                std::vector<FlameBox>& out);

// Which of chart.names contain `needle` (case-insensitive): one pass over the
// names, not the slices (what highlighting needs on every keystroke).
std::vector<bool> matchingNames(const FlameChart& chart, const std::string& needle);

// Slices whose name contains `needle` (case-insensitive), in time order
// across rows: (row, slice index).
std::vector<std::pair<size_t, size_t>> findSlices(const FlameChart& chart,
                                                  const std::string& needle, size_t limit);

} // namespace mvp
