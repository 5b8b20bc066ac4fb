#include "sql/parser/pg_query_runner.h"

#include <pthread.h>

#include <cstring>

#include <pg_query.h>

namespace floe::sql {

PgQueryOutput RunPgQuery(const std::string& text) {
  PgQueryOutput out;
  PgQueryParseResult result = pg_query_parse(text.c_str());
  if (result.error != nullptr) {
    out.error = result.error->message != nullptr ? result.error->message : "syntax error";
    out.cursor_position = result.error->cursorpos;
  } else if (result.parse_tree != nullptr) {
    out.json = result.parse_tree;
  }
  pg_query_free_parse_result(result);
  return out;
}

namespace {

struct ThreadArgument {
  const std::function<void()>* work;
};

void* ThreadMain(void* raw) {
  auto* argument = static_cast<ThreadArgument*>(raw);
  (*argument->work)();
  // libpg_query frees its per-thread memory context itself when the thread ends (TSD).
  return nullptr;
}

}  // namespace

Status RunWithLargeStack(const std::function<void()>& work, size_t stack_bytes) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_bytes);
  ThreadArgument argument{&work};
  pthread_t thread;
  int rc = pthread_create(&thread, &attributes, ThreadMain, &argument);
  pthread_attr_destroy(&attributes);
  if (rc != 0) {
    return MakeError(ErrorKind::kResourceExhausted, "starting the SQL parser thread: {}", std::strerror(rc));
  }
  pthread_join(thread, nullptr);
  return OkStatus();
}

}  // namespace floe::sql
