// libFuzzer's entry points, from the clang runtime that `-sanitize=fuzzer` links
// (compiler-rt's FuzzerInterface.h).
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command-line arguments `argc`/`argv` on `callback`, as its own
/// `main` would: fuzzing, `-merge=1`, `-runs=N` or running the files given.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
