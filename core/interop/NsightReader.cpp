#include "core/interop/NsightReader.h"

#include "core/session/Sqlite.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sqlite3.h>
#include <unordered_map>

namespace mvp::interop {

namespace {
// globalTid = pid << 24 | tid (NVIDIA's exporter documentation).
int64_t pidOf(int64_t globalTid) {
    return (globalTid >> 24) & 0xFFFFFF;
}
int64_t tidOf(int64_t globalTid) {
    return globalTid & 0xFFFFFF;
}

constexpr int kNvtxPushPop = 59, kNvtxStartEnd = 60;

struct Export {
    sql::Db db;
    std::string name; // the file's name, for messages
    std::set<std::string> tables;
    std::unordered_map<int64_t, std::string> strings; // StringIds
    std::map<int64_t, TraceModel> byProcess;

    Result<std::set<std::string>> columns(const std::string& table) {
        std::set<std::string> out;
        auto st = db.prepare("PRAGMA table_info(" + table + ")");
        if (!st) return st.error();
        for (;;) {
            auto has = st->step();
            if (!has) return has.error();
            if (!*has) return out;
            out.insert(st->text(1));
        }
    }
    TraceModel& model(int64_t pid) {
        auto it = byProcess.find(pid);
        if (it == byProcess.end())
            it = byProcess.emplace(pid, TraceModel(name + " (pid " + std::to_string(pid) + ")"))
                     .first;
        // Exact ns: a range contains a call only if it starts no later and
        // ends no earlier (NVIDIA's nvtx_kern_sum rule), no slack.
        it->second.setNestingSlackNs(0);
        return it->second;
    }
    std::string text(int64_t id) const {
        const auto it = strings.find(id);
        return it == strings.end() ? std::string() : it->second;
    }
};

// Runs `sqlText`, calling `row` for each result row.
template <typename Row> Status eachRow(Export& x, const std::string& sqlText, Row row) {
    auto st = x.db.prepare(sqlText);
    if (!st) return st.error();
    for (;;) {
        auto has = st->step();
        if (!has) return has.error();
        if (!*has) return Ok{};
        row(*st);
    }
}

Status readStrings(Export& x) {
    if (!x.tables.count("StringIds")) return Ok{};
    return eachRow(x, "SELECT id, value FROM StringIds",
                   [&](const sql::Stmt& s) { x.strings[s.int64(0)] = s.text(1); });
}

// "aten::mm, seq = 5, op_id = 9, sizes = [[2, 3], [3, 4]]" (PyTorch's
// emit_nvtx): the op's name and, with record_shapes, its Input Dims.
bool parseNvtxOp(const std::string& text, std::string& name, Json& args) {
    const auto comma = text.find(", ");
    name = text.substr(0, comma);
    if (name.find("::") == std::string::npos || name.find(' ') != std::string::npos) return false;
    args = Json::object();
    if (const auto sizes = text.find("sizes = "); sizes != std::string::npos) {
        Json dims = Json::parse(text.substr(sizes + 8), nullptr, false);
        if (dims.is_array()) args["Input Dims"] = std::move(dims);
    }
    return true;
}

Status readNvtx(Export& x) {
    if (!x.tables.count("NVTX_EVENTS")) return Ok{};
    auto cols = x.columns("NVTX_EVENTS");
    if (!cols) return cols.error();
    const std::string textId = cols->count("textId") ? "textId" : "NULL";
    const std::string endTid = cols->count("endGlobalTid") ? "endGlobalTid IS NULL AND " : "";
    return eachRow(x,
                   "SELECT start, end, text, " + textId + ", globalTid FROM NVTX_EVENTS WHERE " +
                       endTid + "end IS NOT NULL AND end >= start AND eventType IN (" +
                       std::to_string(kNvtxPushPop) + "," + std::to_string(kNvtxStartEnd) + ")",
                   [&](const sql::Stmt& s) {
                       const int64_t tid = s.int64(4);
                       TraceModel& m = x.model(pidOf(tid));
                       m.countEvent();
                       std::string text = s.isNull(3) ? s.text(2) : x.text(s.int64(3));
                       TraceRecord r;
                       r.startNs = s.int64(0);
                       r.durNs = s.int64(1) - s.int64(0);
                       r.kind = EventKind::Annotation;
                       std::string opName;
                       Json args;
                       if (parseNvtxOp(text, opName, args)) {
                           r.kind = EventKind::Op;
                           r.detail = m.signatureOf(opName, args);
                           text = opName;
                       }
                       m.addRecord(r, text, std::to_string(pidOf(tid)), std::to_string(tidOf(tid)),
                                   tidOf(tid));
                   });
}

Status readRuntime(Export& x) {
    if (!x.tables.count("CUPTI_ACTIVITY_KIND_RUNTIME")) return Ok{};
    return eachRow(
        x, "SELECT start, end, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
        [&](const sql::Stmt& s) {
            const int64_t tid = s.int64(2);
            TraceModel& m = x.model(pidOf(tid));
            m.countEvent();
            TraceRecord r;
            r.startNs = s.int64(0);
            r.durNs = std::max<int64_t>(0, s.int64(1) - s.int64(0));
            r.kind = EventKind::Runtime;
            m.addRecord(r, x.text(s.int64(4)), std::to_string(pidOf(tid)),
                        std::to_string(tidOf(tid)), tidOf(tid), EventIds{-1, s.int64(3)});
        });
}

const char* copyKindName(int64_t kind) {
    switch (kind) {
    case 1:
        return "Memcpy HtoD";
    case 2:
        return "Memcpy DtoH";
    case 8:
        return "Memcpy DtoD";
    case 10:
        return "Memcpy PtoP";
    default:
        return "Memcpy";
    }
}

// Kernels, copies and fills, on a track per GPU stream.
Status readDeviceWork(Export& x, const char* table, EventKind kind) {
    if (!x.tables.count(table)) return Ok{};
    auto cols = x.columns(table);
    if (!cols) return cols.error();
    std::string name = "NULL";
    if (kind == EventKind::Kernel)
        for (const char* c : {"demangledName", "shortName", "mangledName"})
            if (cols->count(c)) {
                name = c;
                break;
            }
    if (kind == EventKind::Memcpy && cols->count("copyKind")) name = "copyKind";
    const std::string bytes = cols->count("bytes") ? "bytes" : "0";
    return eachRow(x,
                   "SELECT start, end, deviceId, streamId, correlationId, globalPid, " + name +
                       ", " + bytes + " FROM " + table,
                   [&](const sql::Stmt& s) {
                       const int64_t pid = pidOf(s.int64(5));
                       TraceModel& m = x.model(pid);
                       m.countEvent();
                       TraceRecord r;
                       r.startNs = s.int64(0);
                       r.durNs = std::max<int64_t>(0, s.int64(1) - s.int64(0));
                       r.kind = kind;
                       DeviceWork work;
                       work.device = int16_t(std::clamp<int64_t>(s.int64(2), 0, 1023));
                       work.stream = int32_t(s.int64(3));
                       work.bytes = std::max<int64_t>(0, s.int64(7));
                       const std::string label = kind == EventKind::Kernel ? x.text(s.int64(6))
                                                 : kind == EventKind::Memcpy
                                                     ? copyKindName(s.int64(6))
                                                     : "Memset";
                       m.addRecord(r, label, "GPU " + std::to_string(work.device),
                                   "stream " + std::to_string(work.stream), -1,
                                   EventIds{-1, s.int64(4)}, work);
                   });
}

// The GPUs (TARGET_INFO_GPU), into every run's config.
Status readGpus(Export& x) {
    if (!x.tables.count("TARGET_INFO_GPU")) return Ok{};
    auto cols = x.columns("TARGET_INFO_GPU");
    if (!cols) return cols.error();
    std::vector<std::string> wanted;
    for (const char* c : {"id", "name", "totalMemory", "smCount", "computeMajor", "computeMinor"})
        if (cols->count(c)) wanted.emplace_back(c);
    if (wanted.empty()) return Ok{};
    std::string select;
    for (const auto& c : wanted)
        select += (select.empty() ? "" : ", ") + c;
    Json gpus = Json::array();
    auto s = eachRow(x, "SELECT " + select + " FROM TARGET_INFO_GPU", [&](const sql::Stmt& st) {
        Json g = Json::object();
        for (size_t i = 0; i < wanted.size(); ++i)
            g[wanted[i]] = wanted[i] == "name" ? Json(st.text(int(i))) : Json(st.int64(int(i)));
        gpus.push_back(std::move(g));
    });
    if (!s) return s;
    for (auto& [pid, m] : x.byProcess)
        m.addMeta("gpus", Json(gpus));
    return Ok{};
}

Status readStartTime(Export& x) {
    if (!x.tables.count("TARGET_INFO_SESSION_START_TIME")) return Ok{};
    auto t = x.db.queryInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1");
    if (!t) return t.error();
    if (*t)
        for (auto& [pid, m] : x.byProcess)
            m.addMeta("baseTimeNanoseconds", Json(**t));
    return Ok{};
}
} // namespace

bool isSqliteFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char header[16] = {};
    in.read(header, sizeof header);
    return in.gcount() == 16 && std::memcmp(header, "SQLite format 3\0", 16) == 0;
}

Result<std::vector<TraceModel>> readNsight(const std::string& path) {
    Export x;
    x.name = std::filesystem::path(path).filename().string();
    auto db = sql::Db::open(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    if (!db) return db.error();
    x.db = std::move(db.value());
    // A file from anyone: never run SQL functions stored in it.
    sqlite3_db_config(x.db.handle(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(x.db.handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    auto tables = eachRow(x, "SELECT name FROM sqlite_master WHERE type='table'",
                          [&](const sql::Stmt& s) { x.tables.insert(s.text(0)); });
    if (!tables)
        return makeError(ErrorCode::BadInput,
                         path + " is a damaged SQLite file: " + tables.error().message);
    if (x.tables.count("meta") && x.tables.count("op_chunk"))
        return makeError(ErrorCode::BadInput,
                         path + " is an mvprof session, not a trace: open it directly");
    const bool nsight = x.tables.count("NVTX_EVENTS") ||
                        x.tables.count("CUPTI_ACTIVITY_KIND_KERNEL") ||
                        x.tables.count("CUPTI_ACTIVITY_KIND_RUNTIME");
    if (!nsight)
        return makeError(ErrorCode::BadInput,
                         path + " is an SQLite database but not an Nsight Systems export (no "
                                "CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table): export the report "
                                "with `nsys export --type sqlite`");
    for (auto step : {readStrings, readNvtx, readRuntime})
        if (auto s = step(x); !s)
            return makeError(ErrorCode::BadInput, path + ": " + s.error().message);
    const std::pair<const char*, EventKind> work[] = {
        {"CUPTI_ACTIVITY_KIND_KERNEL", EventKind::Kernel},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", EventKind::Memcpy},
        {"CUPTI_ACTIVITY_KIND_MEMSET", EventKind::Memset}};
    for (const auto& [table, kind] : work)
        if (auto s = readDeviceWork(x, table, kind); !s)
            return makeError(ErrorCode::BadInput, path + ": " + s.error().message);
    if (auto s = readStartTime(x); !s) return s.error();
    if (auto s = readGpus(x); !s) return s.error();
    std::vector<TraceModel> out;
    for (auto& [pid, m] : x.byProcess)
        out.push_back(std::move(m));
    if (out.empty())
        return makeError(ErrorCode::BadInput, path + " is an Nsight Systems export with no "
                                                     "kernels, runtime calls or NVTX ranges");
    return out;
}

} // namespace mvp::interop
