// What zstd's settings do to a journal's data frames: their size, and the work of
// decompressing them whole or only as far as a point in them (time travel needs the
// records up to its point only). BENCHMARKS.md, "Session 42: time travel's tail".
//
//   cc -O2 -o /tmp/zstd-frames Tools/zstd-frames.c -lzstd
//   zstd -dc JOURNAL -o raw.bin          # the records of every data frame, in order
//   /tmp/zstd-frames raw.bin size|whole|part [LEVEL [BLOCKS]]
//
// raw.bin is cut into 64 KiB pieces (Rewind's default frame size), each compressed as one
// zstd frame at LEVEL (3, Rewind's) with the content size and checksum, as Rewind's writer
// does, in BLOCKS blocks (1: one ZSTD_compress2 call, as Rewind's writer; more: the piece
// fed to ZSTD_compressStream2 in that many equal parts, each but the last ended with
// ZSTD_e_flush, which ends a block). Settings from the environment override the level's:
// STRATEGY, MIN_MATCH, SEARCH_LOG, HASH_LOG, CHAIN_LOG, ROW_MATCH_FINDER (1 on, 2 off).
//
//   size   prints the frames' total size and the compression's speed;
//   whole  decompresses every frame once with ZSTD_decompressDCtx (content checksum checked);
//   part   decompresses each frame with ZSTD_decompressContinue, a block at a time, up to a
//          random byte of it (as a query stops at its point), the content checksum ignored
//          (ZSTD_d_forceIgnoreChecksum: it cannot be checked short of the frame's end),
//          and checks the bytes against raw.bin.
//
// Count instructions with valgrind --tool=callgrind and callgrind_annotate --inclusive=yes
// (ZSTD_decompressDCtx, ZSTD_decompressContinue, ZSTD_compress2 / ZSTD_compressStream2).
#define ZSTD_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

enum { PIECE = 64 << 10 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void check(size_t result, const char *what) {
  if (ZSTD_isError(result)) {
    fprintf(stderr, "zstd-frames: %s: %s\n", what, ZSTD_getErrorName(result));
    exit(1);
  }
}

static void setting(ZSTD_CCtx *context, const char *name, ZSTD_cParameter parameter) {
  const char *value = getenv(name);
  if (value) check(ZSTD_CCtx_setParameter(context, parameter, atoi(value)), name);
}

static size_t compress(ZSTD_CCtx *context, int level, int blocks, const unsigned char *source,
                       unsigned char *destination, size_t capacity) {
  check(ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters), "reset");
  check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level), "level");
  check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1), "checksum");
  setting(context, "STRATEGY", ZSTD_c_strategy);
  setting(context, "MIN_MATCH", ZSTD_c_minMatch);
  setting(context, "SEARCH_LOG", ZSTD_c_searchLog);
  setting(context, "HASH_LOG", ZSTD_c_hashLog);
  setting(context, "CHAIN_LOG", ZSTD_c_chainLog);
  setting(context, "ROW_MATCH_FINDER", ZSTD_c_useRowMatchFinder);
  if (blocks <= 1) {
    size_t size = ZSTD_compress2(context, destination, capacity, source, PIECE);
    check(size, "ZSTD_compress2");
    return size;
  }
  check(ZSTD_CCtx_setPledgedSrcSize(context, PIECE), "content size");
  ZSTD_outBuffer output = {destination, capacity, 0};
  size_t part = PIECE / blocks;
  for (int block = 0; block < blocks; block++) {
    int last = block == blocks - 1;
    ZSTD_inBuffer input = {source + block * part, last ? PIECE - block * part : part, 0};
    size_t left;
    do {
      left = ZSTD_compressStream2(context, &output, &input, last ? ZSTD_e_end : ZSTD_e_flush);
      check(left, "ZSTD_compressStream2");
    } while (left != 0);
  }
  return output.pos;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: zstd-frames RAW size|whole|part [LEVEL [BLOCKS]]\n");
    return 64;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file) {
    perror(argv[1]);
    return 1;
  }
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *raw = malloc(length);
  if (fread(raw, 1, length, file) != (size_t)length) {
    fprintf(stderr, "zstd-frames: cannot read %s\n", argv[1]);
    return 1;
  }
  fclose(file);
  const char *mode = argv[2];
  int level = argc > 3 ? atoi(argv[3]) : 3;
  int blocks = argc > 4 ? atoi(argv[4]) : 1;
  int frames = (int)(length / PIECE);
  if (frames == 0) {
    fprintf(stderr, "zstd-frames: %s holds less than one frame\n", argv[1]);
    return 1;
  }
  size_t capacity = ZSTD_compressBound(PIECE);
  unsigned char *compressed = malloc((size_t)frames * capacity);
  size_t *sizes = malloc(frames * sizeof(size_t));
  ZSTD_CCtx *compressor = ZSTD_createCCtx();
  size_t total = 0;
  double start = now();
  for (int frame = 0; frame < frames; frame++) {
    sizes[frame] = compress(compressor, level, blocks, raw + (size_t)frame * PIECE,
                            compressed + (size_t)frame * capacity, capacity);
    total += sizes[frame];
  }
  double seconds = now() - start;
  if (!strcmp(mode, "size")) {
    printf("level %d, %d block(s) a frame: %zu bytes for %d frames of 64 KiB (%.1f a frame); "
           "compression %.1f MB/s\n",
           level, blocks, total, frames, (double)total / frames, frames * (double)PIECE / seconds / 1e6);
    return 0;
  }
  ZSTD_DCtx *decompressor = ZSTD_createDCtx();
  unsigned char *out = malloc(PIECE);
  unsigned long long produced = 0;
  srand(7);
  if (!strcmp(mode, "whole")) {
    for (int frame = 0; frame < frames; frame++) {
      size_t size = ZSTD_decompressDCtx(decompressor, out, PIECE,
                                        compressed + (size_t)frame * capacity, sizes[frame]);
      check(size, "ZSTD_decompressDCtx");
      produced += size;
    }
  } else if (!strcmp(mode, "part")) {
    check(ZSTD_DCtx_setParameter(decompressor, ZSTD_d_forceIgnoreChecksum, 1), "ignore checksum");
    for (int frame = 0; frame < frames; frame++) {
      size_t target = (size_t)rand() % PIECE + 1;
      const unsigned char *source = compressed + (size_t)frame * capacity;
      size_t in = 0, done = 0;
      check(ZSTD_decompressBegin(decompressor), "ZSTD_decompressBegin");
      while (done < target) {
        size_t next = ZSTD_nextSrcSizeToDecompress(decompressor);
        if (next == 0) break;
        size_t size = ZSTD_decompressContinue(decompressor, out + done, PIECE - done, source + in, next);
        check(size, "ZSTD_decompressContinue");
        in += next;
        done += size;
      }
      if (done < target || memcmp(out, raw + (size_t)frame * PIECE, target)) {
        fprintf(stderr, "zstd-frames: frame %d decompressed wrong\n", frame);
        return 1;
      }
      produced += done;
    }
  } else {
    fprintf(stderr, "zstd-frames: unknown mode '%s' (size, whole, part)\n", mode);
    return 64;
  }
  printf("%s: %d frames, %.1f %% of their bytes decompressed\n", mode, frames,
         100.0 * produced / ((double)frames * PIECE));
  return 0;
}
