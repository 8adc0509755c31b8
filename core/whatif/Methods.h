#pragma once
// The what-if methods mvprof runs, each declared once: its name, how the CLI
// asks for it and checks its value, what a sweep's budget counts for it, how
// the GUI offers it, and where else it runs (the Python package, TorchScript
// user models). Plain data: the CLI builds its options from it, the GUI its
// menu, dialog and Compare Methods list, and the planner
// (capture/whatif/MethodPlans.cpp) has one row per method beside it.
// Adding a method: docs/ARCHITECTURE.md.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

enum class Method : unsigned char {
    PruneVisual, FastV, PyramidDrop, Dart, VisionZip, ToMe, Downsample, PruneChannels,
    W4, W8, KvInt4, StreamingLlm, H2O, SnapKv, Kivi, FreezeCold, SkipExperts, KeepExperts,
};

// How the method is asked for on the command line.
enum class ValueKind : unsigned char {
    Switch,   // a flag without a value (--freeze-cold)
    Word,     // a word of an option shared with other methods (--quant w4, --kv-method h2o)
    Fraction, // a number in its range (--prune-visual 0.4)
    Count,    // a whole number in its range (--visionzip 64)
};

// What a sweep's budget counts for the method (docs/whatif-methods.md §0).
enum class Budget : unsigned char {
    None,          // not swept
    TokensSent,    // image tokens the encoder sends to the LLM
    LayerAveraged, // image tokens held, averaged over the decoder's layers
    KeptAfterCut,  // image tokens kept after the method's one cut (DART)
    KvFraction,    // the fraction of the prefill's positions each KV head keeps
};

// Methods of one family replace one another: a what-if runs at most one of
// each, and the GUI offers a family as one choice.
enum class Family : unsigned char { None, DecoderDrop, EncoderTokens, Quant, KvCache };

// The values a Fraction or Count method takes.
struct ValueRange {
    double min = 0, max = 0;
    bool minOpen = false, maxOpen = false; // the bound itself excluded
    bool contains(double v) const;
    std::string text() const; // "(0, 1]", or "2 or more" for an open-ended count
};

struct MethodSpec {
    Method method;
    const char* key;    // "visionzip": sweeps, GUI actions, JSON
    const char* option; // "--visionzip"; a Word method's shared option, "--quant"
    const char* word;   // a Word method's word ("w4"); nullptr otherwise
    ValueKind kind;
    ValueRange range; // Fraction and Count
    double preset;    // the value of the one-click what-if and the dialog's default
    const char* help; // the CLI's help (a Word method's: what its word does)
    // The GUI's words, marked for translation (context "mvp::WhatIfMethods").
    const char* name;        // "VisionZip"
    const char* menuLabel;   // the one-click action, with its preset
    const char* shortLabel;  // the toolbar's
    const char* dialogLabel; // Custom What-if's line for it (its value follows)
    const char* valueLabel;  // a request's label with the value as %1 ("VisionZip %1")
    Budget budget;
    Family family;
    bool oneClick; // in the What-if menu with its preset
    bool toolbar;  // … and on the What-if toolbar
    const char* python; // the Python package's transform ("mvprof.VisionZip"), or nullptr
    bool userModel;     // runs on a TorchScript user model (--model-file)
};

// Every method, in the order the CLI's help, the menu and the dialog list them.
std::span<const MethodSpec> whatIfMethods();
const MethodSpec& methodSpec(Method m);
std::optional<Method> methodFromKey(std::string_view key);
// How the CLI asks for the method: "--fastv", "--kv-method h2o".
std::string methodFlag(Method m);
// The Word method asked for by `option` `word` ("--kv-method", "h2o").
std::optional<Method> methodFromWord(std::string_view option, std::string_view word);

// An option that Word methods share, and what it chooses.
struct WordOption {
    const char* option; // "--kv-method"
    const char* help;   // what it chooses; each word's help follows
};
std::span<const WordOption> wordOptions();
// The words `option` takes, in catalogue order.
std::vector<std::string> optionWords(std::string_view option);

// A sweep row's convention: "sent", "layer-averaged", "kept after cut",
// "per KV head"; "" for None.
const char* toString(Budget b);
// The GUI's words for the budget, marked for translation ("tokens sent"; ""
// where the method's name says it).
const char* budgetDescription(Budget b);

// What ranks the visual patches kept by pruning (--saliency).
enum class SaliencySource : unsigned char { Attention, Saliency, FeatureNorm };
const char* toString(SaliencySource s); // "attention", "saliency", "feature-norm"
std::optional<SaliencySource> saliencySourceFromString(std::string_view s);

} // namespace mvp
