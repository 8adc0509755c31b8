// `mvprof-cli make-set`: an eval set of generated scenes (core/eval/Scenes.h)
// — images and a JSONL file that `whatif --eval` and the training tool read.
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "capture/config/Resources.h"
#include "core/eval/EvalSet.h"
#include "core/eval/Scenes.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace fs = std::filesystem;
using namespace scenes;

namespace {

constexpr QuestionKind kKinds[] = {QuestionKind::Colour, QuestionKind::ShapeOfColour,
                                   QuestionKind::Count, QuestionKind::LeftRight};

struct MakeSetOptions {
    int n = 200;
    std::string out;
    uint64_t firstSeed = 1'000'000'000; // training draws its scenes below this
    std::string backgrounds = "train";
    std::vector<std::string> photos;
};

std::string bundledPhoto(const MakeSetOptions& o) {
    return o.backgrounds == "train" ? kTrainingPhoto : kHeldOutPhoto;
}

// The item's extras beside the eval-set fields: what the test of where the
// model looked, and a reader of the set, need to know about the scene.
nlohmann::ordered_json itemJson(const Scene& s, const Question& q, const std::string& image) {
    nlohmann::ordered_json j;
    j["id"] = "scene-" + std::to_string(s.seed) + "-" + toString(q.kind);
    j["image"] = image;
    j["prompt"] = q.prompt;
    j["answer"] = q.answer;
    j["kind"] = toString(q.kind);
    j["backdrop"] = toString(s.backdrop);
    j["seed"] = s.seed;
    if (q.object) {
        const Box& b = s.objects[size_t(*q.object)].box;
        j["box"] = {b.x0, b.y0, b.x1, b.y1};
    }
    return j;
}

// Items cycle through the question kinds, so each is a quarter of the set;
// a scene that cannot be asked the next kind is skipped.
Status writeSet(const MakeSetOptions& o, const std::vector<RgbImage>& photos) {
    std::error_code ec;
    fs::create_directories(fs::path(o.out) / "images", ec);
    if (ec) return makeError(ErrorCode::Io, o.out + ": " + ec.message());
    const SceneOptions options{o.backgrounds == "train" ? Split::Train : Split::HeldOut, &photos};
    std::string lines;
    uint64_t seed = o.firstSeed;
    for (int i = 0; i < o.n; ++i) {
        for (;; ++seed) {
            const Scene s = makeScene(seed, options);
            const auto q = std::find_if(s.questions.begin(), s.questions.end(),
                                        [&](const Question& q) { return q.kind == kKinds[i % 4]; });
            if (q == s.questions.end()) continue;
            const std::string image = "images/scene-" + std::to_string(seed) + ".png";
            if (auto w = writePng((fs::path(o.out) / image).string(), s.image); !w)
                return w.error();
            lines += itemJson(s, *q, image).dump() + "\n";
            ++seed;
            break;
        }
    }
    const fs::path set = fs::path(o.out) / "set.jsonl";
    std::ofstream f(set, std::ios::binary | std::ios::trunc);
    f << lines;
    f.close();
    if (!f) return makeError(ErrorCode::Io, set.string() + ": writing it failed");
    return Ok{};
}

} // namespace

int makeSetCommand(const std::vector<std::string>& argv) {
    CommandLine cli("make-set",
                    "mvprof-cli make-set --out DIR [--n N] [--first-seed S] "
                    "[--backgrounds train|held-out] [--photos FILE…] — an eval set of generated "
                    "scenes",
                    "Writes DIR/set.jsonl and DIR/images/. Each item asks one of: What colour is "
                    "the <shape>? What shape is <colour>? How many shapes are there? Is the "
                    "<shape> on the left or the right? (docs/eval.md). Seeds below 1000000000 "
                    "are the training tool's.");
    MakeSetOptions o;
    cli.app.add_option("--out", o.out, "the folder to write [required]");
    cli.app.add_option("--n", o.n, "items (default 200)")->check(inRange(1, 1'000'000));
    cli.app.add_option("--first-seed", o.firstSeed, "the first scene's seed (default 1000000000)");
    cli.app
        .add_option("--backgrounds", o.backgrounds,
                    "train (default: value-noise textures, the training photograph) or "
                    "held-out (stripe textures, another photograph)")
        ->check(oneOf({"train", "held-out"}));
    cli.app.add_option("--photos", o.photos,
                       "photographs for the backdrops (default: the bundled sample of that set)");
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    if (o.out.empty()) return fail(2, "no output folder: pass --out DIR");
    auto photos = loadPhotos(o.photos, bundledPhoto(o));
    if (!photos) return fail(photos.error().exitCode(), photos.error().message);
    if (auto s = writeSet(o, *photos); !s) return fail(s.error().exitCode(), s.error().message);
    std::printf("Wrote %s/set.jsonl: %d items, scenes from seed %llu\n", o.out.c_str(), o.n,
                static_cast<unsigned long long>(o.firstSeed));
    return 0;
}

} // namespace mvp::cli
