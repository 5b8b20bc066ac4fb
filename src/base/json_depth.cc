#include "base/json_depth.h"

#include <algorithm>

namespace floe {

int JsonNestingDepth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // The escaped character cannot end the string.
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        deepest = std::max(deepest, ++depth);
        break;
      case ']':
      case '}':
        depth = std::max(0, depth - 1);
        break;
      default:
        break;
    }
  }
  return deepest;
}

Status CheckJsonDepth(std::string_view text, int max_depth) {
  int depth = JsonNestingDepth(text);
  if (depth > max_depth) {
    return InvalidArgument("JSON nests {} levels deep; at most {} are accepted", depth, max_depth);
  }
  return OkStatus();
}

}  // namespace floe
