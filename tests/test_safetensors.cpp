// Safetensors (core/interop/Safetensors.h) and SHA-256: a file assembled byte
// by byte from the format's description, the published SHA-256 test
// vectors, the writer's files read back, and hostile files — each of the
// header's numbers wrong, then seeded random damage — refused with an error,
// never a crash (this test runs under the sanitizer build too).
#include "core/interop/Safetensors.h"
#include "core/interop/Sha256.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <fstream>

using namespace mvp;
namespace st = mvp::safetensors;

namespace {

std::vector<uint8_t> bytesOf(const std::string& s) {
    return {s.begin(), s.end()};
}

// 8-byte little-endian length, the header text, the data.
std::vector<uint8_t> assemble(const std::string& header, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> out;
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(uint64_t(header.size()) >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::vector<uint8_t> floats(std::initializer_list<float> v) {
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), std::data(v), out.size());
    return out;
}

std::string errorOf(const std::vector<uint8_t>& file) {
    auto f = st::File::fromBytes(file, "w.safetensors");
    return f ? std::string() : f.error().message;
}

std::string sha(const std::string& s) {
    return sha256Hex(bytesOf(s));
}

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

private slots:
    void sha256MatchesThePublishedVectors() {
        // FIPS 180-4's examples and the NIST one-million-'a' message.
        QCOMPARE(sha(""),
                 std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(sha("abc"),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(sha(std::string(1000000, 'a')),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    }

    void sha256IsTheSameInAnyChunking() {
        std::string text;
        for (int i = 0; i < 1000; ++i)
            text += char('a' + i % 26);
        const auto whole = sha(text);
        for (size_t chunk : {1u, 7u, 63u, 64u, 65u, 200u}) {
            Sha256 h;
            for (size_t at = 0; at < text.size(); at += chunk) {
                const auto part = bytesOf(text.substr(at, chunk));
                h.update(part);
            }
            QCOMPARE(h.hexDigest(), whole);
        }
    }

    void readsAFileAssembledByHand() {
        const auto file = assemble(
            R"({"__metadata__":{"format":"pt"},"b":{"dtype":"I8","shape":[3],"data_offsets":[8,11]},)"
            R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
            [] {
                auto d = floats({1.5f, -2.0f});
                d.insert(d.end(), {7, uint8_t(-1), 0});
                return d;
            }());
        auto f = st::File::fromBytes(file, "hand");
        QVERIFY2(f.ok(), f ? "" : f.error().message.c_str());
        QCOMPARE(f->header().metadata.at("format"), std::string("pt"));
        QCOMPARE(f->header().tensors.size(), size_t(2));
        const st::Entry* a = f->find("a");
        QVERIFY(a);
        QCOMPARE(a->dtype, st::Dtype::F32);
        QCOMPARE(a->shape, std::vector<int64_t>{2});
        float v[2];
        std::memcpy(v, f->data(*a).data(), 8);
        QCOMPARE(v[0], 1.5f);
        QCOMPARE(v[1], -2.0f);
        const st::Entry* b = f->find("b");
        QVERIFY(b);
        QCOMPARE(int8_t(f->data(*b)[1]), int8_t(-1));
        QVERIFY(!f->find("c"));
    }

    void writesWhatItReads() {
        const auto a = floats({1, 2, 3, 4, 5, 6});
        const std::vector<uint8_t> b = {1, 2};
        auto bytes =
            st::serialise({{"w", st::Dtype::F32, {2, 3}, a}, {"s", st::Dtype::BF16, {1}, b}},
                          {{"model", "ref:tiny"}});
        QVERIFY(bytes.ok());
        uint64_t n = 0;
        std::memcpy(&n, bytes->data(), 8);
        QCOMPARE(n % 8, uint64_t(0)); // padded: every tensor starts aligned
        QCOMPARE((*bytes)[8], uint8_t('{'));
        auto f = st::File::fromBytes(*bytes, "mine");
        QVERIFY2(f.ok(), f ? "" : f.error().message.c_str());
        QCOMPARE(f->header().tensors[0].name, std::string("w")); // the writer's order
        QCOMPARE(f->header().tensors[0].shape, (std::vector<int64_t>{2, 3}));
        const auto w = f->data(*f->find("w"));
        QVERIFY(std::equal(w.begin(), w.end(), a.begin(), a.end()));
        QCOMPARE(f->header().metadata.at("model"), std::string("ref:tiny"));
        // A zero-element tensor takes no bytes and is still a tensor.
        auto empty = st::serialise({{"e", st::Dtype::F32, {0, 4}, {}}});
        QVERIFY(empty.ok());
        QVERIFY(st::File::fromBytes(*empty, "empty").ok());
    }

    void writerRefusesInconsistentTensors() {
        const auto a = floats({1, 2});
        QVERIFY(!st::serialise({{"w", st::Dtype::F32, {3}, a}}).ok());
        QVERIFY(
            !st::serialise({{"w", st::Dtype::F32, {2}, a}, {"w", st::Dtype::F32, {2}, a}}).ok());
        QVERIFY(!st::serialise({{"__metadata__", st::Dtype::F32, {2}, a}}).ok());
    }

    void writeGoesThroughAPartialFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("w.safetensors")).toStdString();
        const auto a = floats({1, 2});
        QVERIFY(st::write(path, {{"w", st::Dtype::F32, {2}, a}}).ok());
        auto f = st::File::read(path);
        QVERIFY(f.ok());
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".partial")));
        // A folder that does not exist: an error naming the file, nothing left.
        const std::string nowhere = dir.filePath(QStringLiteral("no/w.safetensors")).toStdString();
        auto s = st::write(nowhere, {{"w", st::Dtype::F32, {2}, a}});
        QVERIFY(!s.ok());
        QVERIFY(s.error().message.find("no/w.safetensors") != std::string::npos);
        auto missing = st::File::read(nowhere);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    void refusesEachBadHeaderNumber_data() {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("dataBytes");
        QTest::addColumn<QString>("says");
        auto row = [](const char* name, const char* header, int data, const char* says) {
            QTest::newRow(name) << QByteArray(header) << data << QString::fromUtf8(says);
        };
        row("unknown dtype", R"({"a":{"dtype":"F17","shape":[2],"data_offsets":[0,8]}})", 8,
            "unknown dtype");
        row("range past the data", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,16]}})", 8,
            "outside the data");
        row("reversed range", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", 8,
            "outside the data");
        row("range vs shape", R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8,
            "needs 12 bytes");
        row("overlap",
            R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
            8, "overlaps");
        row("gap", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8,
            "belong to no tensor");
        row("trailing bytes", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 8,
            "belong to no tensor");
        row("negative dimension", R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8,
            "non-negative");
        row("overflowing shape",
            R"({"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", 8,
            "impossible");
        row("negative offset", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}})", 8,
            "data_offsets");
        row("missing offsets", R"({"a":{"dtype":"F32","shape":[2]}})", 8, "data_offsets");
        row("not JSON", R"({"a":)", 0, "not a JSON object");
        row("not an object", R"({"a":[1,2]})", 0, "not a JSON object");
        row("metadata not strings", R"({"__metadata__":{"n":1}})", 0, "not a string");
        row("array header", R"([1,2])", 0, "does not start with '{'");
    }
    void refusesEachBadHeaderNumber() {
        QFETCH(QByteArray, header);
        QFETCH(int, dataBytes);
        QFETCH(QString, says);
        const auto err =
            errorOf(assemble(header.toStdString(), std::vector<uint8_t>(size_t(dataBytes))));
        QVERIFY2(err.find(says.toStdString()) != std::string::npos, err.c_str());
        QVERIFY2(err.find("w.safetensors") == 0, err.c_str()); // errors name the file
    }

    void refusesImpossibleLengths() {
        QVERIFY(errorOf({}).find("shorter than the 8-byte") != std::string::npos);
        QVERIFY(errorOf({1, 2, 3}).find("shorter than the 8-byte") != std::string::npos);
        // An absurd header length: 2^63, and one just past the file's end.
        std::vector<uint8_t> absurd(16, 0);
        absurd[7] = 0x80;
        QVERIFY(errorOf(absurd).find("header length") != std::string::npos);
        auto cut =
            assemble(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", floats({1}));
        cut.resize(20); // truncated inside the header
        QVERIFY(errorOf(cut).find("header length") != std::string::npos);
        auto shortData =
            assemble(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", floats({1}));
        QVERIFY(errorOf(shortData).find("truncated") != std::string::npos);
    }

    // Seeded damage to a valid file: bytes flipped, cut, header length
    // rewritten. Each case parses or is refused; any tensor it yields lies
    // inside the file (what the sanitizer build watches).
    void randomDamageIsRefusedOrHarmless() {
        const auto a = floats({1, 2, 3, 4, 5, 6});
        const std::vector<uint8_t> b = {1, 2, 3, 4};
        const auto valid = *st::serialise(
            {{"w", st::Dtype::F32, {2, 3}, a}, {"i", st::Dtype::I16, {2}, b}}, {{"k", "v"}});
        QRandomGenerator rng(20261206);
        int refused = 0;
        for (int i = 0; i < 4000; ++i) {
            auto bytes = valid;
            switch (i % 4) {
            case 0: // flip a few bytes anywhere
                for (int k = 0; k < 1 + int(rng.bounded(4)); ++k)
                    bytes[rng.bounded(quint32(bytes.size()))] = uint8_t(rng.bounded(256));
                break;
            case 1: // cut it
                bytes.resize(rng.bounded(quint32(bytes.size())));
                break;
            case 2: { // a random header length
                const uint64_t n = rng.generate64() >> rng.bounded(64);
                std::memcpy(bytes.data(), &n, 8);
                break;
            }
            default: // damage inside the JSON text only
                bytes[8 + rng.bounded(quint32(bytes.size() - 8 - 16))] =
                    uint8_t(rng.bounded(32, 127));
            }
            auto f = st::File::fromBytes(bytes, "fuzz");
            if (!f) {
                ++refused;
                QVERIFY(!f.error().message.empty());
                continue;
            }
            for (const auto& e : f->header().tensors) {
                QVERIFY(f->header().dataStart + e.end <= bytes.size());
                const auto d = f->data(e);
                volatile uint8_t sum = 0;
                for (uint8_t x : d)
                    sum = uint8_t(sum + x);
            }
        }
        QVERIFY(refused > 2000); // most damage is caught, not read as weights
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
