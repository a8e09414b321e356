/**
 * The one way onnxruntime-node is loaded: with its telemetry off.
 *
 * ONNX Runtime's Linux and macOS builds (1.30 here) carry Microsoft's telemetry: run as it
 * comes, the first session writes `~/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid` (a
 * device id) and `onnxruntime.db` (a queue of session events: OS, versions, model facts) for
 * upload over HTTPS. Nothing of a workspace may leave the machine unasked, so
 * `ORT_DISABLE_TELEMETRY=1` is set before the package is first loaded; with it, the runtime
 * starts no telemetry and writes nothing (test/cli/nothingPhonedHome.test.ts).
 *
 * The runtime reads the variable from the process's environment, which only the main thread can
 * change (a worker thread's `process.env` is a copy of its own): so it is set in every thread that
 * loads the package, and by the worker pool before it starts a worker (workerPool.ts).
 */

/** Turns ONNX Runtime's telemetry off for this process (a main thread's setting reaches every thread). */
export function disableOnnxTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1';
}

/** onnxruntime-node, loaded with its telemetry off. Throws when its native binding does not load. */
export function loadOnnxRuntime(): typeof import('onnxruntime-node') {
  disableOnnxTelemetry();
  // Required lazily: only processes and workers that run the model load the native binding.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('onnxruntime-node') as typeof import('onnxruntime-node');
}
