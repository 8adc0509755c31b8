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

#define MVPROF_ABI_VERSION 8

enum mvprof_error {
    MVPROF_OK = 0,
    MVPROF_BAD_INPUT = -2, /* a wrong argument or call order */
    MVPROF_IO = -3,        /* the session file could not be written or read */
    MVPROF_INTERNAL = -1,
};

enum mvprof_status { MVPROF_COMPLETE = 0, MVPROF_INCOMPLETE = 1, MVPROF_FAILED = 2 };

typedef struct mvprof_session mvprof_session;

/* What a run is. Strings may be NULL (empty); config_json NULL is "{}". The
 * image is a file (image_path) or its bytes (image_data, image_size; PNG,
 * JPEG or BMP; image_path then only names it). A what-if names its
 * transform and the run it compares with (baseline_run > 0); a baseline
 * leaves both empty. */
typedef struct mvprof_run_info {
    const char* model;
    const char* prompt;
    const char* image_path;
    const unsigned char* image_data;
    long long image_size;
    const char* config_json;
    const char* device; /* "cpu" when NULL */
    const char* dtype;  /* "float32" when NULL */
    const char* transform;
    long long baseline_run;
    int record_ops;
    /* != 0: a softmax inside a module of role "attention" in the prefill or a
     * decode step is read as its probabilities, for the attention heatmap
     * (each op's outputs are then looked at: a little more overhead). */
    int record_attention;
    /* On a CUDA device, how module spans are timed on it: "events" (NULL: a
     * CUDA event at each span's ends, read once per phase step), "exact" (the
     * host also waits for the GPU at every span and op probe, so their host
     * times include their device work) or "off" (host launch times only). */
    const char* device_timing;
    /* != 0 on a CUDA device: no CUPTI trace of its kernels and copies. */
    int no_gpu_trace;
} mvprof_run_info;

MVPROF_API int mvprof_abi_version(void);
MVPROF_API const char* mvprof_last_error(void);

/* Creates the session file; force != 0 replaces an existing one, else it is
 * appended to. */
MVPROF_API int mvprof_open(const char* path, int force, mvprof_session** out);
/* Starts a run (announced for Attach… while it writes); its id in *run_id. */
MVPROF_API int mvprof_begin_run(mvprof_session* s, const mvprof_run_info* info, long long* run_id);
MVPROF_API int mvprof_set_patch_grid(mvprof_session* s, int grid_h, int grid_w, int patch,
                                     int input_size, int first_position);
/* The visual tokens the decoder sees: positions first .. first + count − 1
 * came from image patches patches[0 .. count − 1] (row-major; NULL: 0 ..
 * count − 1). Stored as the prefill's visual token rows. */
MVPROF_API int mvprof_add_visual_tokens(mvprof_session* s, int first_position, int count,
                                        const int* patches);
/* The projector's output for those tokens, rows × cols float32 row-major. */
MVPROF_API int mvprof_set_vision_features(mvprof_session* s, int rows, int cols, const float* data);
/* Phases tile the run: a new phase ends the previous one. */
MVPROF_API int mvprof_begin_phase(mvprof_session* s, const char* phase, int step);
/* A module call: path, kind (its class) and role ("" or vision, projector,
 * llm, attention, moe, router, expert). Calls nest. */
MVPROF_API int mvprof_begin_module(mvprof_session* s, const char* path, const char* kind,
                                   const char* role);
MVPROF_API int mvprof_end_module(mvprof_session* s);
/* The same without strings on each call: a module declared once per run
 * (path, kind and role as above; *handle set), then each call opened with
 * mvprof_enter_module(s, handle) and closed with mvprof_end_module. */
MVPROF_API int mvprof_declare_module(mvprof_session* s, const char* path, const char* kind,
                                     const char* role, int* handle);
MVPROF_API int mvprof_enter_module(mvprof_session* s, int handle);
/* The decoder layer of the innermost open module, by mvprof's own rule (its
 * path's first number; 0 when it has none). */
MVPROF_API int mvprof_current_layer(mvprof_session* s, int* layer);
/* Marks a hook's own work while pause != 0: its ops are hidden from the run
 * and its time is taken off the run's clock (spans and phases exclude it);
 * pairs nest. Call between ops, never inside one. */
MVPROF_API int mvprof_pause_ops(mvprof_session* s, int pause);
/* One top-k slot of a token. layer < 0: mvprof_current_layer's. */
MVPROF_API int mvprof_add_routing(mvprof_session* s, int layer, int token, int rank, int expert,
                                  double weight, const char* modality);
/* The top-k of n consecutive positions first_token … first_token + n − 1 in
 * one call (a router's whole output): experts and weights are n × k,
 * row-major; modality from the declared visual tokens. layer < 0 as above. */
MVPROF_API int mvprof_add_routing_rows(mvprof_session* s, int layer, int first_token, int n, int k,
                                       const long long* experts, const float* weights);
MVPROF_API int mvprof_add_token(mvprof_session* s, int position, const char* modality, int token_id,
                                int patch);
/* What the current pass produced: its next-token logits (n floats) and the
 * token chosen. Prefill is step 0, decode steps their own number. */
MVPROF_API int mvprof_add_step_output(mvprof_session* s, int token, const float* logits, int n);
/* One phase of one A/B repetition of a what-if (docs/format.md `repetition`):
 * arm 0 = the baseline's setup, 1 = the what-if's; rep counts pairs from 0;
 * ns the phase's wall time in that unrecorded pass; control 1 when the
 * what-if's transform cannot change the phase. Stored with the current run. */
MVPROF_API int mvprof_add_repetition(mvprof_session* s, int arm, int rep, const char* phase,
                                     long long ns, int control);
/* One arm's view of the visual tokens, for the resampling loss (docs/diagnostics.md
 * §7). Per decoder layer l < layers: rows[l] vectors of dim floats (what the
 * layer's attention reads at the visual positions after prefill), row i from
 * patch patches[i]; and queries[l] attention rows over the image's
 * grid_patches patches (each decode query's attention, mean over heads, 0
 * where a patch is not held). Each array is concatenated over the layers. */
typedef struct mvprof_visual_observation {
    int layers, dim, grid_patches;
    const int* rows;
    const int* patches;
    const float* values;
    const int* queries;
    const double* attention;
} mvprof_visual_observation;
/* The resampling loss of the current run's visual tokens against its
 * baseline's, both arms observed by the host: Δcos, relative L2 drift and
 * ΔKL (mean and p95) and the attention lost to pruning, per layer, stored as
 * the run's metrics resample.L<l>.* (measured). */
MVPROF_API int mvprof_add_resampling_loss(mvprof_session* s,
                                          const mvprof_visual_observation* baseline,
                                          const mvprof_visual_observation* whatif);
/* kind: "measured" (what the run or its transform did) or "predicted" (a
 * cost model's figure). */
MVPROF_API int mvprof_add_metric(mvprof_session* s, const char* name, double value,
                                 const char* unit, const char* kind, const char* note);
/* A module whose Linear weights a what-if quantised without a faster kernel
 * here: when the run ends, its latency is predicted from the bytes the
 * low-bit kernel would move (stored as latency.predicted_ns, "predicted"). */
MVPROF_API int mvprof_add_quantised_module(mvprof_session* s, const char* path,
                                           long long fp32_bytes, long long quant_bytes);
/* Per-patch figures of the current run (docs/format.md `patch_values`): n rows
 * (layer, name, patches[i], values[i]); "tokens.kept" (1 where decoder layer
 * `layer`'s input held the patch's token) outlines an in-LLM what-if's kept
 * tokens on the heatmap. */
MVPROF_API int mvprof_add_patch_metrics(mvprof_session* s, int layer, const char* name, int n,
                                        const int* patches, const double* values);
/* Hardware counters of a CUDA run's modules (CUPTI's range profiler;
 * docs/format.md hw.*), read by replaying the run's work after its last phase:
 * mvprof_counters_begin ends the recording (phases, ops, GPU trace) and says
 * whether the counters can be read (*available 0: they cannot, and the run
 * says why in hw.counters). Then, until *done is 1, one replay of the work
 * between mvprof_counter_pass(s, 1, NULL) and mvprof_counter_pass(s, 0,
 * &done), with mvprof_counter_push(s, path) as each module call begins —
 * the path as given to mvprof_begin_module — and mvprof_counter_pop(s) as it
 * ends. mvprof_counters_end(s, failure) turns the counts into the run's
 * hw.* metrics, or, with a failure (the replay raised), hw.counters = 0 with
 * it. A failed pass ends the passes (*done 1) and is reported the same way.
 * Then end the run as usual. The run's device must be CUDA. */
MVPROF_API int mvprof_counters_begin(mvprof_session* s, int* available);
MVPROF_API int mvprof_counter_pass(mvprof_session* s, int begin, int* done);
MVPROF_API int mvprof_counter_push(mvprof_session* s, const char* path);
MVPROF_API int mvprof_counter_pop(mvprof_session* s);
MVPROF_API int mvprof_counters_end(mvprof_session* s, const char* failure);
/* An eval what-if run by the host (docs/eval.md; the Python package's
 * mvprof.evaluate): the host runs every item of an eval set through the
 * baseline's model and the what-if's, and this side scores, compares and
 * stores them as `mvprof-cli whatif --eval` does. Both runs begin at once:
 * `baseline` (stored as "eval baseline", no transform; baseline_run > 0: the
 * capture it re-runs) and `whatif` (its transform; its baseline_run becomes
 * the eval baseline's id). The set is read from set_path, checked as
 * `mvprof-cli eval` checks it — or, where set_jsonl is not NULL, from those
 * JSONL lines (images relative to the working directory; set_path then only
 * names them). Ids in *baseline_id and *whatif_id, the item count in *items.
 * No run may be open; mvprof_add_metric then adds to the what-if. */
MVPROF_API int mvprof_begin_eval(mvprof_session* s, const mvprof_run_info* baseline,
                                 const mvprof_run_info* whatif, const char* set_path,
                                 const char* set_jsonl, int* items, long long* baseline_id,
                                 long long* whatif_id);
/* Item `index` as one JSON line (docs/eval.md's keys; "image" an absolute
 * path), valid until the next call on the session. */
MVPROF_API int mvprof_eval_item(mvprof_session* s, int index, const char** json);
/* One arm's pass of the next item (index = the items stored so far): arm 0
 * (the baseline) first, then arm 1 (the what-if). output: the generated text
 * (UTF-8); logits: steps × vocab float32, each generated step's next-token
 * logits, row-major (NULL and 0 steps: no fidelity); visual_tokens the
 * decoder saw; kept[n_kept]: the patches whose tokens it saw, where the
 * transform chose them; phases[i], ns[i]: its measured time per phase. Arm 1
 * scores its fidelity to arm 0's logits of the same item (KL, top-1, token
 * match) and stores both rows at once. *correct: 1 or 0, -1 without answers. */
MVPROF_API int mvprof_add_eval_item(mvprof_session* s, int arm, int index, const char* output,
                                    const float* logits, int steps, int vocab, int visual_tokens,
                                    const int* kept, int n_kept, const char* const* phases,
                                    const long long* ns, int n_phases, int* correct);
/* Where the model looked while answering the next item (its
 * answer_attention heatmap, stored with the arm's row): an extra pass of arm
 * `arm` over item `index` (as mvprof_add_eval_item's next call names them),
 * made between begin and end with a run's calls (mvprof_begin_phase,
 * mvprof_begin_module / mvprof_end_module, mvprof_set_patch_grid,
 * mvprof_add_visual_tokens, mvprof_pause_ops). Its spans and ops go to a
 * scratch recording nobody reads; softmax inside the attention role's
 * modules is read as a profile reads it. End keeps the heatmap for the
 * arm's next mvprof_add_eval_item (none when no attention was readable or
 * no patch grid was set). Its phases are not timed: the item's times come
 * from the pass mvprof_add_eval_item describes. */
MVPROF_API int mvprof_begin_eval_observation(mvprof_session* s, int arm, int index);
MVPROF_API int mvprof_end_eval_observation(mvprof_session* s);
/* Ends both eval runs with a status (complete with items missing is stored
 * as incomplete, saying how many ran) and, for incomplete or failed, why. */
MVPROF_API int mvprof_end_eval(mvprof_session* s, int status, const char* error);
/* Ends the run with a status and, for incomplete or failed runs, why. */
MVPROF_API int mvprof_end_run(mvprof_session* s, int status, const char* error);
/* Ends a run still open as failed, writes everything and frees the session. */
MVPROF_API int mvprof_close(mvprof_session* s);

/* The experts a cold-expert freeze takes offline, from the routing of
 * baseline_run in this session (docs/diagnostics.md §9: fewer than
 * min_activations in two consecutive windows of `window` tokens; top-k
 * stays possible). Pairs (layers[i], experts[i]) for i < *count; at most
 * capacity are written, *count says how many there are. Call between runs. */
MVPROF_API int mvprof_plan_cold_experts(mvprof_session* s, long long baseline_run, int window,
                                        int min_activations, int* layers, int* experts,
                                        int capacity, int* count);

/* How many visual tokens run baseline_run of this session sent the decoder
 * (its token rows of visual modality; 0 when it declared none), so a
 * what-if's budget is checked before its run begins. Call between runs. */
MVPROF_API int mvprof_visual_token_count(mvprof_session* s, long long baseline_run, int* count);

/* Group-wise asymmetric round-to-nearest quantisation of a float32 weight
 * [rows, cols] in place: each row in groups of `group` values (even), each
 * group with a float16 scale and minimum; the data is replaced by its
 * dequantised value (what a low-bit model computes with) and *stored_bytes
 * is what the low-bit format holds (codes + scales + minima). bits: 4 or 8.
 * The same format as the built-in model's and TorchScript models' --quant. */
MVPROF_API int mvprof_quantise_weights(float* data, long long rows, long long cols, int bits,
                                       int group, long long* stored_bytes);

/* The cuts of a published in-LLM visual-token method (capture/whatif/TokenDrop.h)
 * over `layers` decoder layers and `visual` image tokens: method 0 = FastV
 * (k = its layer K, parameter = R), 1 = PyramidDrop (parameter = λ). Cut i
 * (i < *count; at most capacity written) keeps stage_keep[i] image tokens
 * from decoder layer stage_layers[i] on; *layer_averaged is the image tokens
 * per layer averaged over the layers (the papers' budget). No session. */
MVPROF_API int mvprof_plan_token_drop(int method, int layers, long long visual, int k,
                                      double parameter, int* stage_layers, long long* stage_keep,
                                      int capacity, int* count, double* layer_averaged);
/* The indices of the `keep` largest of n scores (ties: the earlier), ascending
 * (FastV's keep_indexs, sorted). No session. */
MVPROF_API int mvprof_top_scores(const double* scores, long long n, long long keep,
                                 long long* kept);

/* VisionZip's choice (capture/whatif/VisionZip.h) for `budget` tokens of n:
 * scores[n] rank the dominant tokens, keys[n × dim] (the layer's keys, mean
 * over heads) give each other token its contextual target. sent[budget]:
 * the patches sent, the dominant first (ascending), then the targets;
 * into[n]: -1 for a sent patch, else the index in sent of the target it
 * merges into. No session. */
MVPROF_API int mvprof_plan_visionzip(const double* scores, long long n, const double* keys, int dim,
                                     long long budget, long long* sent, long long* into,
                                     long long* dominant);

#ifdef __cplusplus
}
#endif

#endif
