// Fuzz target: the bodies of PostgreSQL frontend messages as the server decodes them. The first
// byte picks the message (a StartupMessage's parameters, Parse, Bind, or a Bind's parameters
// turned into SQL literals for each type and format); the rest is the body. Every malformed body
// must be an error naming what is wrong, never a crash or an allocation sized by a length field.
#include <cstdint>
#include <string_view>

#include "serve/parameter_substitution.h"
#include "serve/pg_messages.h"
#include "serve/pg_types.h"

namespace pg = floe::serve::pg;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0]) {
    case 'S':
      (void)pg::ReadStartupParameters(body);
      break;
    case 'P':
      if (auto parse = pg::ReadParse(body)) (void)floe::serve::CountParameters(parse->query);
      break;
    case 'B':
      if (auto bind = pg::ReadBind(body)) {
        // What the server does with bound values: each becomes a literal of its declared type.
        static constexpr int32_t kOids[] = {16, 20, 21, 23, 25, 700, 701, 1043, 1082, 1114, 1184, 1700, 17, 2950};
        std::vector<std::string> literals;
        for (size_t i = 0; i < bind->parameters.size(); ++i) {
          int16_t format = bind->parameter_formats.empty() ? 0
                           : bind->parameter_formats.size() == 1 ? bind->parameter_formats[0]
                                                                  : bind->parameter_formats[i % bind->parameter_formats.size()];
          auto literal = pg::ParameterLiteral(kOids[i % std::size(kOids)], format, bind->parameters[i]);
          if (literal) literals.push_back(*literal);
        }
        (void)floe::serve::SubstituteParameters("SELECT $1, $2, $3", literals);
      }
      break;
    case 'N':
      (void)pg::DecodeNumeric(body);
      break;
    default: {
      // Generic reads in the order other messages (Describe, Execute, Close) use them.
      pg::MessageReader reader(body);
      (void)reader.Byte("kind");
      (void)reader.CString("name");
      (void)reader.Int32("limit");
      (void)reader.Value("value");
      break;
    }
  }
  return 0;
}
