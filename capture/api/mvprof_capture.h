/* mvprof's capture as a plain C ABI, for hosts that are not C++: the
 * Python package (capture/python/mvprof) loads it with ctypes into the same
 * process, and libtorch, as the model it profiles.
 *
 * Every function returns 0 on success or a negative error code; the message
 * of the calling thread's last error is mvprof_last_error(). Nothing here
 * aborts or throws into the host. One session records one run at a time, on
 * the thread that called mvprof_begin_run (ATen ops of that thread only). */
#ifndef MVPROF_CAPTURE_H
#define MVPROF_CAPTURE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(MVPROF_CAPTURE_BUILD)
#define MVPROF_API __attribute__((visibility("default")))
#else
#define MVPROF_API
#endif

#define MVPROF_ABI_VERSION 1

enum mvprof_error {
    MVPROF_OK = 0,
    MVPROF_BAD_INPUT = -2, /* a wrong argument or call order */
    MVPROF_IO = -3,        /* the session file could not be written */
    MVPROF_INTERNAL = -1,
};

enum mvprof_status { MVPROF_COMPLETE = 0, MVPROF_INCOMPLETE = 1, MVPROF_FAILED = 2 };

typedef struct mvprof_session mvprof_session;

MVPROF_API int mvprof_abi_version(void);
MVPROF_API const char* mvprof_last_error(void);

/* Creates the session file; force != 0 replaces an existing one, else it is
 * appended to. */
MVPROF_API int mvprof_open(const char* path, int force, mvprof_session** out);
/* Starts a run; image_path may be NULL, config_json may be NULL ("{}"). */
MVPROF_API int mvprof_begin_run(mvprof_session* s, const char* model, const char* prompt,
                                const char* image_path, const char* config_json, int record_ops);
MVPROF_API int mvprof_set_patch_grid(mvprof_session* s, int grid_h, int grid_w, int patch,
                                     int input_size, int first_position);
/* Phases tile the run: a new phase ends the previous one. */
MVPROF_API int mvprof_begin_phase(mvprof_session* s, const char* phase, int step);
/* A module call: path, kind (its class) and role ("" or vision, projector,
 * llm, attention, moe, router, expert). Calls nest. */
MVPROF_API int mvprof_begin_module(mvprof_session* s, const char* path, const char* kind,
                                   const char* role);
MVPROF_API int mvprof_end_module(mvprof_session* s);
/* Hides the calling thread's ops from the run while pause != 0 (a hook's own
 * tensor work); call between ops, never inside one. */
MVPROF_API int mvprof_pause_ops(mvprof_session* s, int pause);
/* One top-k slot of a token. layer < 0: the layer of the innermost open
 * module (the router whose hook calls this), from its path's first number,
 * or 0 when its path has none. */
MVPROF_API int mvprof_add_routing(mvprof_session* s, int layer, int token, int rank, int expert,
                                  double weight, const char* modality);
MVPROF_API int mvprof_add_token(mvprof_session* s, int position, const char* modality, int token_id,
                                int patch);
MVPROF_API int mvprof_add_metric(mvprof_session* s, const char* name, double value,
                                 const char* unit, const char* note);
/* Ends the run with a status and, for incomplete or failed runs, why. */
MVPROF_API int mvprof_end_run(mvprof_session* s, int status, const char* error);
/* Ends a run still open as failed, writes everything and frees the session. */
MVPROF_API int mvprof_close(mvprof_session* s);

#ifdef __cplusplus
}
#endif

#endif
