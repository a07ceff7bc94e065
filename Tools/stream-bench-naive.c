// The naive alternative Tools/stream-bench measures Rewind's push and pull against: one
// JetStream message per event. Each line of a JSON Lines file (one event, as `rewind
// export` writes it) is published as its own message on one subject of a stream of its
// own (NAIVE_SYNC or NAIVE_ASYNC), with a message id (the line's number) as Rewind's
// frames have, so that a re-sent event is not stored twice:
//   push-sync  URL REPLICAS FILE         one js_Publish per event, each waiting for its ack
//   push-async URL REPLICAS FILE WINDOW  js_PublishAsync, at most WINDOW unacknowledged,
//                                        then waiting for every ack
//   pull       URL sync|async FILE       a pull consumer (no acks) fetching 1,024 messages
//                                        a request; each message's data and a newline
//                                        written to FILE, which must then equal the input
// URL is nats://HOST:PORT, or several separated by commas. Prints the number of events.
// Built by Tools/stream-bench with `cc -O2 … -lnats` (libnats-dev).
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The stream and its one subject: NAIVE_SYNC on naive.sync for push-sync, NAIVE_ASYNC on
// naive.async for push-async (so both fit on one server), as `pull` is told.
static const char *stream = "NAIVE_SYNC";
static const char *subject = "naive.sync";

static void use_stream(const char *kind) {
  if (strcmp(kind, "async") == 0) {
    stream = "NAIVE_ASYNC";
    subject = "naive.async";
  } else if (strcmp(kind, "sync") != 0) {
    fprintf(stderr, "stream-bench-naive: pull sync or pull async, not %s\n", kind);
    exit(2);
  }
}

static void fail(const char *what, natsStatus status, jsErrCode code) {
  fprintf(stderr, "stream-bench-naive: %s: %s (JetStream error %d)\n", what,
          natsStatus_GetText(status), (int)code);
  nats_PrintLastErrorStack(stderr);
  exit(1);
}

// Asynchronous publishes the server refused.
static long failures = 0;

static void refused(jsCtx *context, jsPubAckErr *error, void *closure) {
  (void)context;
  (void)closure;
  if (failures++ == 0) {
    fprintf(stderr, "stream-bench-naive: a publish failed: %s\n", error->ErrText);
  }
}

static void connect(const char *url, long window, natsConnection **connection,
                    jsCtx **context) {
  // The URLs, split at commas.
  char *copy = strdup(url);
  const char *servers[16];
  int count = 0;
  for (char *part = strtok(copy, ","); part != NULL && count < 16; part = strtok(NULL, ",")) {
    servers[count++] = part;
  }
  natsOptions *options = NULL;
  natsStatus status = natsOptions_Create(&options);
  if (status == NATS_OK) status = natsOptions_SetServers(options, servers, count);
  if (status == NATS_OK) status = natsOptions_SetTimeout(options, 10000);
  if (status == NATS_OK) status = natsConnection_Connect(connection, options);
  if (status != NATS_OK) fail("cannot connect", status, 0);
  natsOptions_Destroy(options);
  free(copy);
  jsOptions jsOptions;
  jsOptions_Init(&jsOptions);
  jsOptions.Wait = 10000;
  if (window > 0) {
    jsOptions.PublishAsync.MaxPending = window;
    jsOptions.PublishAsync.ErrHandler = refused;
  }
  status = natsConnection_JetStream(context, *connection, &jsOptions);
  if (status != NATS_OK) fail("no JetStream context", status, 0);
}

static void create_stream(jsCtx *context, int replicas) {
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = stream;
  const char *subjects[] = {subject};
  config.Subjects = subjects;
  config.SubjectsLen = 1;
  config.Storage = js_FileStorage;
  config.Replicas = replicas;
  jsStreamInfo *info = NULL;
  jsErrCode code = 0;
  natsStatus status = js_AddStream(&info, context, &config, NULL, &code);
  if (status != NATS_OK) fail("cannot create the stream", status, code);
  jsStreamInfo_Destroy(info);
}

// The lines of `path`, each without its newline.
static char **read_lines(const char *path, long *count) {
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    perror(path);
    exit(1);
  }
  long capacity = 1024;
  char **lines = malloc(sizeof(char *) * capacity);
  *count = 0;
  char *line = NULL;
  size_t size = 0;
  ssize_t length;
  while ((length = getline(&line, &size, file)) > 0) {
    if (line[length - 1] == '\n') line[length - 1] = 0;
    if (*count == capacity) {
      capacity *= 2;
      lines = realloc(lines, sizeof(char *) * capacity);
    }
    lines[(*count)++] = strdup(line);
  }
  free(line);
  fclose(file);
  return lines;
}

static void push(const char *url, int replicas, const char *path, long window) {
  long count;
  char **lines = read_lines(path, &count);
  natsConnection *connection = NULL;
  jsCtx *context = NULL;
  connect(url, window, &connection, &context);
  create_stream(context, replicas);
  char id[32];
  for (long index = 0; index < count; index++) {
    jsPubOptions options;
    jsPubOptions_Init(&options);
    snprintf(id, sizeof id, "%ld", index + 1);
    options.MsgId = id;
    natsStatus status;
    jsErrCode code = 0;
    if (window == 0) {
      jsPubAck *ack = NULL;
      options.MaxWait = 10000;
      status = js_Publish(&ack, context, subject, lines[index], (int)strlen(lines[index]),
                          &options, &code);
      jsPubAck_Destroy(ack);
    } else {
      status = js_PublishAsync(context, subject, lines[index], (int)strlen(lines[index]),
                               &options);
    }
    if (status != NATS_OK) fail("cannot publish", status, code);
  }
  if (window > 0) {
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = 60000;
    natsStatus status = js_PublishAsyncComplete(context, &options);
    if (status != NATS_OK) fail("the acks did not all come", status, 0);
    natsMsgList pending = {0};
    if (js_PublishAsyncGetPendingList(&pending, context) == NATS_OK && pending.Count > 0) {
      fprintf(stderr, "stream-bench-naive: %d messages not acknowledged\n", pending.Count);
      exit(1);
    }
    if (failures > 0) {
      fprintf(stderr, "stream-bench-naive: %ld messages refused\n", failures);
      exit(1);
    }
  }
  jsStreamInfo *info = NULL;
  jsErrCode code = 0;
  natsStatus status = js_GetStreamInfo(&info, context, stream, NULL, &code);
  if (status != NATS_OK) fail("cannot read the stream", status, code);
  if ((long)info->State.Msgs != count) {
    fprintf(stderr, "stream-bench-naive: the stream holds %llu messages, not %ld\n",
            (unsigned long long)info->State.Msgs, count);
    exit(1);
  }
  printf("%ld events, %llu bytes in the stream\n", count, (unsigned long long)info->State.Bytes);
  jsStreamInfo_Destroy(info);
  jsCtx_Destroy(context);
  natsConnection_Destroy(connection);
}

static void pull(const char *url, const char *path) {
  natsConnection *connection = NULL;
  jsCtx *context = NULL;
  connect(url, 0, &connection, &context);
  jsStreamInfo *info = NULL;
  jsErrCode code = 0;
  natsStatus status = js_GetStreamInfo(&info, context, stream, NULL, &code);
  if (status != NATS_OK) fail("cannot read the stream", status, code);
  uint64_t count = info->State.Msgs;
  jsStreamInfo_Destroy(info);
  jsSubOptions subscription;
  jsSubOptions_Init(&subscription);
  subscription.Stream = stream;
  subscription.Config.AckPolicy = js_AckNone;
  subscription.Config.DeliverPolicy = js_DeliverAll;
  natsSubscription *sub = NULL;
  status = js_PullSubscribe(&sub, context, subject, "naive", NULL, &subscription, &code);
  if (status != NATS_OK) fail("cannot subscribe", status, code);
  FILE *file = fopen(path, "w");
  if (file == NULL) {
    perror(path);
    exit(1);
  }
  uint64_t received = 0;
  while (received < count) {
    natsMsgList list = {0};
    status = natsSubscription_Fetch(&list, sub, 1024, 10000, &code);
    if (status != NATS_OK) fail("cannot fetch", status, code);
    for (int index = 0; index < list.Count; index++) {
      fwrite(natsMsg_GetData(list.Msgs[index]), 1,
             (size_t)natsMsg_GetDataLength(list.Msgs[index]), file);
      fputc('\n', file);
    }
    received += (uint64_t)list.Count;
    natsMsgList_Destroy(&list);
  }
  fclose(file);
  printf("%llu events\n", (unsigned long long)received);
  natsSubscription_Destroy(sub);
  jsCtx_Destroy(context);
  natsConnection_Destroy(connection);
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "push-sync") == 0) {
    push(argv[2], atoi(argv[3]), argv[4], 0);
  } else if (argc == 6 && strcmp(argv[1], "push-async") == 0) {
    use_stream("async");
    push(argv[2], atoi(argv[3]), argv[4], atol(argv[5]));
  } else if (argc == 5 && strcmp(argv[1], "pull") == 0) {
    use_stream(argv[3]);
    pull(argv[2], argv[4]);
  } else {
    fprintf(stderr,
            "usage: stream-bench-naive push-sync URL REPLICAS FILE\n"
            "       stream-bench-naive push-async URL REPLICAS FILE WINDOW\n"
            "       stream-bench-naive pull URL sync|async FILE\n");
    return 2;
  }
  return 0;
}
