#pragma once
// Synthetic visual questions (docs/eval.md): 224 × 224 scenes of one to four
// non-overlapping shapes — circle, square, triangle in red, green, blue or
// yellow, 28–70 px — over a flat colour, a noise texture or a crop of a
// photograph, with the questions that have exactly one right answer. A
// scene is a pure function of its seed and options: the same seed gives the
// same pixels, objects and questions on every machine.

#include "core/image/Image.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp::scenes {

enum class Shape { Circle, Square, Triangle };
enum class Colour { Red, Green, Blue, Yellow };
enum class Backdrop { Flat, Noise, Photo };
enum class QuestionKind { Colour, ShapeOfColour, Count, LeftRight };

const char* toString(Shape s);        // "circle"
const char* toString(Colour c);       // "red"
const char* toString(Backdrop b);     // "flat", "noise", "photo"
const char* toString(QuestionKind k); // "colour", "shape", "count", "left-right"

// Which textures and photographs a scene may use. Training scenes draw
// noise from one texture family and crops of the training photographs;
// held-out scenes draw from a second family and other photographs, so an
// accuracy on them is measured on backgrounds the model never saw.
enum class Split { Train, HeldOut };

struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0; // pixels, [x0, x1) × [y0, y1)
};

struct Object {
    Shape shape = Shape::Circle;
    Colour colour = Colour::Red;
    Box box;
    double centreX() const { return 0.5 * (box.x0 + box.x1); }
};

struct Question {
    QuestionKind kind = QuestionKind::Count;
    std::string prompt;        // "What colour is the circle?"
    std::string answer;        // one lower-case word: "red"
    std::optional<int> object; // the object asked about (not for counting)
};

struct Scene {
    uint64_t seed = 0;
    Backdrop backdrop = Backdrop::Flat;
    RgbImage image;
    std::vector<Object> objects;
    std::vector<Question> questions; // every question this scene answers unambiguously
};

struct SceneOptions {
    Split split = Split::Train;
    // The photographs crops are taken from (flipped, tinted, cropped); none:
    // photo backdrops become noise.
    const std::vector<RgbImage>* photos = nullptr;
};

inline constexpr int kSceneSize = 224;

Scene makeScene(uint64_t seed, const SceneOptions& options = {});

// Whether pixel (x, y) of the scene belongs to the object (its drawn shape,
// not only its box).
bool covers(const Object& o, int x, int y);

// What lies under each cell of a grid × grid partition of the scene, from
// the generator's geometry (never from pixels): the object covering most of
// the cell if it covers at least a fifth of it, and whether an object's
// centre falls in the cell. Row-major, top row first.
struct CellLabel {
    std::optional<int> object; // index into Scene::objects
    bool holdsCentre = false;
};
std::vector<CellLabel> cellLabels(const Scene& scene, int grid);

// The questions' wording, exactly as the model is trained and asked.
std::string colourQuestion(Shape s);    // "What colour is the circle?"
std::string shapeQuestion(Colour c);    // "What shape is red?"
std::string countQuestion();            // "How many shapes are there?"
std::string leftRightQuestion(Shape s); // "Is the circle on the left or the right?"

} // namespace mvp::scenes
