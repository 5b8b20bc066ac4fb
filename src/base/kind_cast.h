// A tagged node hierarchy (the SQL syntax tree, bound expressions, logical plans) keeps a `kind`
// in its common base and holds each kind's fields in a class of its own (with `kKind`). KindCast
// gives the base `As<T>()`: the node as its kind's class T, checked, so a caller that is wrong
// about the kind aborts, naming both kinds (the base's KindMismatch), instead of reading memory
// of another shape. The check is one compare the branch predictor learns.
#pragma once

namespace floe {

// `struct Node : KindCast<Node>`, with `kind` and a [[noreturn]] `KindMismatch(kind) const` that
// KindCast<Node> may call (a friend when private).
template <typename Node>
class KindCast {
 public:
  template <typename T>
  T& As() {
    Node& node = static_cast<Node&>(*this);
    if (node.kind != T::kKind) [[unlikely]]
      node.KindMismatch(T::kKind);
    return static_cast<T&>(node);
  }

  template <typename T>
  const T& As() const {
    const Node& node = static_cast<const Node&>(*this);
    if (node.kind != T::kKind) [[unlikely]]
      node.KindMismatch(T::kKind);
    return static_cast<const T&>(node);
  }
};

}  // namespace floe
