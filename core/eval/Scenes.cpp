#include "core/eval/Scenes.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace mvp::scenes {

namespace {

// SplitMix64: fully specified, so a seed gives the same scene with any
// standard library (std's distributions are not).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int uniform(int lo, int hi) { // [lo, hi]
        return lo + int(next() % uint64_t(hi - lo + 1));
    }
    double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
    uint64_t state_;
};

using Rgb = std::array<int, 3>;

constexpr int kMinSide = 28, kMaxSide = 70, kGap = 4;
// Left or right is asked only of a shape whose centre is this far from the middle.
constexpr double kMidMargin = 8;

Rgb shapeColour(Colour c, Rng& rng) {
    static constexpr Rgb kBase[] = {{215, 30, 30}, {30, 170, 40}, {30, 60, 220}, {235, 210, 30}};
    Rgb v = kBase[int(c)];
    for (int& ch : v)
        ch = std::clamp(ch + rng.uniform(-15, 15), 0, 255);
    return v;
}

// A muted colour: grey with a faint tint, never close to a shape colour.
Rgb mutedColour(Rng& rng) {
    const int grey = rng.uniform(40, 215);
    return {grey + rng.uniform(-18, 18), grey + rng.uniform(-18, 18), grey + rng.uniform(-18, 18)};
}

void put(RgbImage& img, int x, int y, const Rgb& c) {
    uint8_t* p = &img.rgb[size_t((y * img.width + x) * 3)];
    for (int i = 0; i < 3; ++i)
        p[i] = uint8_t(std::clamp(c[size_t(i)], 0, 255));
}

Rgb mix(const Rgb& a, const Rgb& b, double t) {
    Rgb m;
    for (size_t i = 0; i < 3; ++i)
        m[i] = int(std::lround(a[i] * (1 - t) + b[i] * t));
    return m;
}

void flat(RgbImage& img, Rng& rng) {
    const Rgb c = mutedColour(rng);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            put(img, x, y, c);
}

// Training texture family: smooth value noise (a random grid, bilinear) blending two muted colours.
void valueNoise(RgbImage& img, Rng& rng) {
    const Rgb a = mutedColour(rng), b = mutedColour(rng);
    const int cells = rng.uniform(3, 9);
    std::vector<double> grid(size_t((cells + 1) * (cells + 1)));
    for (double& g : grid)
        g = rng.unit();
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const double gx = double(x) / img.width * cells, gy = double(y) / img.height * cells;
            const int ix = int(gx), iy = int(gy);
            const double fx = gx - ix, fy = gy - iy;
            auto at = [&](int i, int j) { return grid[size_t(j * (cells + 1) + i)]; };
            const double t = (at(ix, iy) * (1 - fx) + at(ix + 1, iy) * fx) * (1 - fy) +
                             (at(ix, iy + 1) * (1 - fx) + at(ix + 1, iy + 1) * fx) * fy;
            put(img, x, y, mix(a, b, t));
        }
}

// Held-out texture family: oriented stripes with grain, never seen in training.
void stripes(RgbImage& img, Rng& rng) {
    const Rgb a = mutedColour(rng), b = mutedColour(rng);
    const double angle = rng.unit() * M_PI, period = rng.uniform(10, 40);
    const double cx = std::cos(angle), cy = std::sin(angle);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const double t = 0.5 + 0.5 * std::sin(2 * M_PI * (x * cx + y * cy) / period);
            Rgb c = mix(a, b, t);
            const int grain = rng.uniform(-10, 10);
            for (int& ch : c)
                ch += grain;
            put(img, x, y, c);
        }
}

// A square crop of a photograph, maybe mirrored, tinted and washed out
// towards grey so that its colours do not read as shapes.
void photoCrop(RgbImage& img, const RgbImage& photo, Rng& rng) {
    const int side = std::min(photo.width, photo.height);
    const int crop = std::max(8, int(side * (0.4 + 0.6 * rng.unit())));
    const int x0 = rng.uniform(0, photo.width - crop), y0 = rng.uniform(0, photo.height - crop);
    RgbImage part;
    part.width = part.height = crop;
    part.rgb.resize(size_t(crop * crop * 3));
    const bool mirror = rng.uniform(0, 1) == 1;
    for (int y = 0; y < crop; ++y)
        for (int x = 0; x < crop; ++x) {
            const int sx = x0 + (mirror ? crop - 1 - x : x);
            const uint8_t* s = &photo.rgb[size_t(((y0 + y) * photo.width + sx) * 3)];
            std::copy(s, s + 3, &part.rgb[size_t((y * crop + x) * 3)]);
        }
    const RgbImage fitted = resize(part, img.width, img.height);
    const double wash = 0.3 + 0.3 * rng.unit();
    std::array<double, 3> tint;
    for (double& t : tint)
        t = 0.85 + 0.3 * rng.unit();
    for (size_t i = 0; i < fitted.rgb.size(); i += 3) {
        const double grey = (fitted.rgb[i] + fitted.rgb[i + 1] + fitted.rgb[i + 2]) / 3.0;
        for (size_t c = 0; c < 3; ++c)
            img.rgb[i + c] = uint8_t(std::clamp(
                std::lround(((1 - wash) * fitted.rgb[i + c] + wash * grey) * tint[c]), 0L, 255L));
    }
}

bool inside(Shape s, const Box& b, int x, int y) {
    const double px = x + 0.5, py = y + 0.5;
    const double side = b.x1 - b.x0, cx = 0.5 * (b.x0 + b.x1), cy = 0.5 * (b.y0 + b.y1);
    switch (s) {
    case Shape::Square:
        return true;
    case Shape::Circle:
        return (px - cx) * (px - cx) + (py - cy) * (py - cy) <= 0.25 * side * side;
    case Shape::Triangle: // apex at the top centre, base along the bottom
        return std::abs(px - cx) <= 0.5 * (py - b.y0);
    }
    return false;
}

void draw(RgbImage& img, const Object& o, const Rgb& colour) {
    for (int y = o.box.y0; y < o.box.y1; ++y)
        for (int x = o.box.x0; x < o.box.x1; ++x)
            if (inside(o.shape, o.box, x, y)) put(img, x, y, colour);
}

bool apart(const Box& a, const Box& b) {
    return a.x1 + kGap <= b.x0 || b.x1 + kGap <= a.x0 || a.y1 + kGap <= b.y0 || b.y1 + kGap <= a.y0;
}

std::vector<Object> placeObjects(Rng& rng, int size) {
    const int wanted = rng.uniform(1, 4);
    std::vector<Object> objects;
    for (int tries = 0; tries < 400 && int(objects.size()) < wanted; ++tries) {
        Object o;
        o.shape = Shape(rng.uniform(0, 2));
        o.colour = Colour(rng.uniform(0, 3));
        const int side = rng.uniform(kMinSide, kMaxSide);
        o.box.x0 = rng.uniform(0, size - side);
        o.box.y0 = rng.uniform(0, size - side);
        o.box.x1 = o.box.x0 + side;
        o.box.y1 = o.box.y0 + side;
        if (std::all_of(objects.begin(), objects.end(),
                        [&](const Object& p) { return apart(o.box, p.box); }))
            objects.push_back(o);
    }
    return objects;
}

template <typename Key> std::optional<int> onlyOne(const std::vector<Object>& objects, Key key) {
    std::optional<int> found;
    for (size_t i = 0; i < objects.size(); ++i)
        if (key(objects[i])) {
            if (found) return std::nullopt;
            found = int(i);
        }
    return found;
}

std::vector<Question> questionsFor(const std::vector<Object>& objects, int size) {
    std::vector<Question> q;
    for (int s = 0; s < 3; ++s) {
        const auto i = onlyOne(objects, [&](const Object& o) { return o.shape == Shape(s); });
        if (!i) continue;
        const Object& o = objects[size_t(*i)];
        q.push_back({QuestionKind::Colour, colourQuestion(o.shape), toString(o.colour), *i});
        if (std::abs(o.centreX() - 0.5 * size) >= kMidMargin)
            q.push_back({QuestionKind::LeftRight, leftRightQuestion(o.shape),
                         o.centreX() < 0.5 * size ? "left" : "right", *i});
    }
    for (int c = 0; c < 4; ++c)
        if (const auto i = onlyOne(objects, [&](const Object& o) { return o.colour == Colour(c); }))
            q.push_back({QuestionKind::ShapeOfColour, shapeQuestion(Colour(c)),
                         toString(objects[size_t(*i)].shape), *i});
    q.push_back({QuestionKind::Count, countQuestion(), std::to_string(objects.size()), {}});
    return q;
}

} // namespace

const char* toString(Shape s) {
    static const char* k[] = {"circle", "square", "triangle"};
    return k[int(s)];
}
const char* toString(Colour c) {
    static const char* k[] = {"red", "green", "blue", "yellow"};
    return k[int(c)];
}
const char* toString(Backdrop b) {
    static const char* k[] = {"flat", "noise", "photo"};
    return k[int(b)];
}
const char* toString(QuestionKind q) {
    static const char* k[] = {"colour", "shape", "count", "left-right"};
    return k[int(q)];
}

std::string colourQuestion(Shape s) {
    return std::string("What colour is the ") + toString(s) + "?";
}
std::string shapeQuestion(Colour c) {
    return std::string("What shape is ") + toString(c) + "?";
}
std::string countQuestion() {
    return "How many shapes are there?";
}
std::string leftRightQuestion(Shape s) {
    return std::string("Is the ") + toString(s) + " on the left or the right?";
}

Scene makeScene(uint64_t seed, const SceneOptions& options) {
    Rng rng(seed);
    Scene scene;
    scene.seed = seed;
    scene.image.width = scene.image.height = kSceneSize;
    scene.image.rgb.resize(size_t(kSceneSize * kSceneSize * 3));
    const bool photos = options.photos && !options.photos->empty();
    scene.backdrop = Backdrop(rng.uniform(0, 2));
    if (scene.backdrop == Backdrop::Photo && !photos) scene.backdrop = Backdrop::Noise;
    switch (scene.backdrop) {
    case Backdrop::Flat:
        flat(scene.image, rng);
        break;
    case Backdrop::Noise:
        if (options.split == Split::Train)
            valueNoise(scene.image, rng);
        else
            stripes(scene.image, rng);
        break;
    case Backdrop::Photo: {
        const auto& list = *options.photos;
        photoCrop(scene.image, list[size_t(rng.uniform(0, int(list.size()) - 1))], rng);
        break;
    }
    }
    scene.objects = placeObjects(rng, kSceneSize);
    for (const auto& o : scene.objects)
        draw(scene.image, o, shapeColour(o.colour, rng));
    scene.questions = questionsFor(scene.objects, kSceneSize);
    return scene;
}

bool covers(const Object& o, int x, int y) {
    return x >= o.box.x0 && x < o.box.x1 && y >= o.box.y0 && y < o.box.y1 &&
           inside(o.shape, o.box, x, y);
}

std::vector<CellLabel> cellLabels(const Scene& scene, int grid) {
    const int side = scene.image.width;
    std::vector<CellLabel> cells(size_t(grid * grid));
    for (int row = 0; row < grid; ++row)
        for (int col = 0; col < grid; ++col) {
            const int x0 = col * side / grid, x1 = (col + 1) * side / grid;
            const int y0 = row * side / grid, y1 = (row + 1) * side / grid;
            CellLabel& cell = cells[size_t(row * grid + col)];
            int best = 0;
            for (size_t i = 0; i < scene.objects.size(); ++i) {
                const Object& o = scene.objects[i];
                int covered = 0;
                for (int y = std::max(y0, o.box.y0); y < std::min(y1, o.box.y1); ++y)
                    for (int x = std::max(x0, o.box.x0); x < std::min(x1, o.box.x1); ++x)
                        covered += inside(o.shape, o.box, x, y);
                if (covered > best) best = covered, cell.object = int(i);
                const double cx = o.centreX(), cy = 0.5 * (o.box.y0 + o.box.y1);
                cell.holdsCentre |= cx >= x0 && cx < x1 && cy >= y0 && cy < y1;
            }
            if (5 * best < (x1 - x0) * (y1 - y0)) cell.object.reset();
        }
    return cells;
}

} // namespace mvp::scenes
