// gpt2_data: writes a randomly initialised GPT-2 checkpoint and synthetic
// token files in the llm.c file formats, so whole-model training runs
// (docs/validation.md) need no downloaded weights or datasets.
//
//   gpt2_data checkpoint OUT [--bf16] [-L layers] [-H heads] [-C channels]
//                            [-T max_seq_len] [-V vocab] [--seed N]
//   gpt2_data tokens OUT -n COUNT [-V vocab] [--seed N]
//
// Checkpoint: 256 int32 header (magic 20240326, version 3 for fp32 or 5 for
// bf16, maxT, V, L, NH, C, padded V), then the parameters in llm.c's order.
// Weights are drawn from N(0, 0.02), with the residual projections scaled by
// 1/sqrt(2L) as GPT-2 does; layernorm scales are 1 and every bias is 0. The
// token embedding's padding rows (V up to the padded V) are zero, as llm.c
// writes them: its CUDA trainers leave the logits of padding columns in the
// gradient buffer and rely on those rows giving zero.
//
// Tokens: 256 int32 header (magic 20240520, version 1, count), then uint16
// tokens. They follow one fixed random first-order Markov chain over a small
// alphabet of token ids, so a model can learn them and the loss falls; --seed
// picks the walk through it.
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rngState;

static uint32_t nextU32(void) {
  // xorshift64*
  rngState ^= rngState >> 12;
  rngState ^= rngState << 25;
  rngState ^= rngState >> 27;
  return (uint32_t)((rngState * 0x2545F4914F6CDD1DULL) >> 32);
}

static double nextUnit(void) { return (nextU32() + 0.5) / 4294967296.0; }

static float nextNormal(float stddev) {
  // Box-Muller; one value per call keeps the stream simple to reproduce.
  double u1 = nextUnit(), u2 = nextUnit();
  return (float)(stddev * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static uint16_t toBf16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  bits += 0x7FFF + ((bits >> 16) & 1); // round to nearest even
  return (uint16_t)(bits >> 16);
}

typedef struct {
  FILE *file;
  const char *path;
  int bf16;
} Writer;

static void fail(const char *what, const char *path) {
  fprintf(stderr, "gpt2_data: %s '%s': %s\n", what, path, strerror(errno));
  exit(1);
}

static void writeValues(Writer *w, size_t count, float value, float stddev) {
  for (size_t i = 0; i < count; ++i) {
    float f = stddev > 0 ? nextNormal(stddev) : value;
    if (w->bf16) {
      uint16_t h = toBf16(f);
      if (fwrite(&h, sizeof h, 1, w->file) != 1)
        fail("cannot write", w->path);
    } else if (fwrite(&f, sizeof f, 1, w->file) != 1) {
      fail("cannot write", w->path);
    }
  }
}

static void usage(void) {
  fprintf(stderr,
          "usage: gpt2_data checkpoint OUT [--bf16] [-L n] [-H n] [-C n] [-T n] "
          "[-V n] [--seed n]\n"
          "       gpt2_data tokens OUT -n COUNT [-V n] [--seed n]\n");
  exit(2);
}

static long parsePositive(const char *flag, const char *text) {
  char *end = NULL;
  long v = strtol(text, &end, 10);
  if (!*text || *end || v <= 0) {
    fprintf(stderr, "gpt2_data: %s needs a positive integer, got '%s'\n", flag, text);
    exit(2);
  }
  return v;
}

// Writes to OUT.tmp and renames, so a failed run never leaves a truncated file
// under the final name.
static FILE *openTemp(const char *out, char *tmp, size_t tmpSize) {
  if ((size_t)snprintf(tmp, tmpSize, "%s.tmp", out) >= tmpSize) {
    fprintf(stderr, "gpt2_data: output path too long\n");
    exit(2);
  }
  FILE *f = fopen(tmp, "wb");
  if (!f)
    fail("cannot create", tmp);
  return f;
}

static void finish(FILE *f, const char *tmp, const char *out) {
  if (fclose(f) != 0)
    fail("cannot write", tmp);
  if (rename(tmp, out) != 0)
    fail("cannot rename to", out);
}

int main(int argc, char **argv) {
  if (argc < 3)
    usage();
  const char *mode = argv[1], *out = argv[2];
  long L = 2, NH = 4, C = 256, maxT = 64, V = 50257, count = 0;
  int bf16 = 0;
  rngState = 0x9E3779B97F4A7C15ULL;
  for (int i = 3; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--bf16")) {
      bf16 = 1;
      continue;
    }
    if (i + 1 >= argc)
      usage();
    const char *v = argv[++i];
    if (!strcmp(a, "-L")) L = parsePositive(a, v);
    else if (!strcmp(a, "-H")) NH = parsePositive(a, v);
    else if (!strcmp(a, "-C")) C = parsePositive(a, v);
    else if (!strcmp(a, "-T")) maxT = parsePositive(a, v);
    else if (!strcmp(a, "-V")) V = parsePositive(a, v);
    else if (!strcmp(a, "-n")) count = parsePositive(a, v);
    else if (!strcmp(a, "--seed")) rngState = (uint64_t)parsePositive(a, v) * 0x9E3779B97F4A7C15ULL;
    else usage();
  }
  char tmp[4096];
  int32_t header[256];
  memset(header, 0, sizeof header);

  if (!strcmp(mode, "tokens")) {
    if (count == 0 || V > 65536)
      usage();
    // A small alphabet with a fixed transition table: each token has four
    // likely successors. The table does not depend on --seed, so files
    // written with different seeds (a train and a validation split) sample
    // the same language.
    enum { Alphabet = 64, Successors = 4 };
    uint16_t ids[Alphabet], next[Alphabet][Successors];
    uint64_t sampleState = rngState;
    rngState = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < Alphabet; ++i)
      ids[i] = (uint16_t)(nextU32() % (uint32_t)V);
    for (int i = 0; i < Alphabet; ++i)
      for (int j = 0; j < Successors; ++j)
        next[i][j] = (uint16_t)(nextU32() % Alphabet);
    rngState = sampleState;
    header[0] = 20240520;
    header[1] = 1;
    header[2] = (int32_t)count;
    FILE *f = openTemp(out, tmp, sizeof tmp);
    if (fwrite(header, sizeof header, 1, f) != 1)
      fail("cannot write", tmp);
    int state = 0;
    for (long i = 0; i < count; ++i) {
      if (fwrite(&ids[state], sizeof ids[state], 1, f) != 1)
        fail("cannot write", tmp);
      state = next[state][nextU32() % Successors];
    }
    finish(f, tmp, out);
    printf("gpt2_data: wrote %ld tokens to %s\n", count, out);
    return 0;
  }

  if (strcmp(mode, "checkpoint") != 0)
    usage();
  if (C % NH != 0) {
    fprintf(stderr, "gpt2_data: channels (%ld) must be a multiple of heads (%ld)\n", C, NH);
    return 2;
  }
  long Vp = (V + 127) / 128 * 128;
  header[0] = 20240326;
  header[1] = bf16 ? 5 : 3;
  header[2] = (int32_t)maxT;
  header[3] = (int32_t)V;
  header[4] = (int32_t)L;
  header[5] = (int32_t)NH;
  header[6] = (int32_t)C;
  header[7] = (int32_t)Vp;
  FILE *f = openTemp(out, tmp, sizeof tmp);
  if (fwrite(header, sizeof header, 1, f) != 1)
    fail("cannot write", tmp);
  Writer w = {f, tmp, bf16};
  const float std = 0.02f;
  const float residualStd = std / sqrtf(2.0f * (float)L);
  writeValues(&w, (size_t)V * C, 0, std);        // wte
  writeValues(&w, (size_t)(Vp - V) * C, 0, 0);   // wte's padding rows: zero
  writeValues(&w, (size_t)maxT * C, 0, std);     // wpe
  writeValues(&w, (size_t)L * C, 1, 0);          // ln1w
  writeValues(&w, (size_t)L * C, 0, 0);          // ln1b
  writeValues(&w, (size_t)L * 3 * C * C, 0, std); // qkvw
  writeValues(&w, (size_t)L * 3 * C, 0, 0);      // qkvb
  writeValues(&w, (size_t)L * C * C, 0, residualStd); // attprojw
  writeValues(&w, (size_t)L * C, 0, 0);          // attprojb
  writeValues(&w, (size_t)L * C, 1, 0);          // ln2w
  writeValues(&w, (size_t)L * C, 0, 0);          // ln2b
  writeValues(&w, (size_t)L * 4 * C * C, 0, std); // fcw
  writeValues(&w, (size_t)L * 4 * C, 0, 0);      // fcb
  writeValues(&w, (size_t)L * C * 4 * C, 0, residualStd); // fcprojw
  writeValues(&w, (size_t)L * C, 0, 0);          // fcprojb
  writeValues(&w, (size_t)C, 1, 0);              // lnfw
  writeValues(&w, (size_t)C, 0, 0);              // lnfb
  finish(f, tmp, out);
  printf("gpt2_data: wrote a %s checkpoint (L=%ld NH=%ld C=%ld maxT=%ld V=%ld) to %s\n",
         bf16 ? "bf16" : "fp32", L, NH, C, maxT, V, out);
  return 0;
}
