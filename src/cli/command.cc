#include "cli/command.h"

#include <fmt/format.h>

#include <boost/asio/ip/address.hpp>

#include "base/logging.h"

namespace floe::cli {

CLI::App* CommandRegistry::Add(CLI::App& parent, const std::string& name, const std::string& description,
                               const std::string& section, RunFunction run) {
  CLI::App* app = parent.add_subcommand(name, description);
  entries_[app] = Entry{section, std::move(run)};
  return app;
}

namespace {

// The deepest selected subcommand: `floe table create` selects `create` under `table`.
CLI::App* SelectedLeaf(CLI::App& root) {
  CLI::App* current = &root;
  while (true) {
    auto selected = current->get_subcommands();
    if (selected.empty()) return current;
    current = selected.front();
  }
}

void ApplyConfig(CLI::App& app, const std::string& section, const Config& config) {
  for (CLI::Option* option : app.get_options()) {
    if (option->count() > 0 || option->get_lnames().empty()) continue;
    const std::string& name = option->get_lnames().front();
    if (name == "help") continue;
    if (auto value = config.Get(section, name)) {
      option->add_result(*value);
      option->run_callback();
    }
  }
}

}  // namespace

int CommandRegistry::RunSelected(CLI::App& root, const Config& config) {
  CLI::App* leaf = SelectedLeaf(root);
  auto it = entries_.find(leaf);
  if (it == entries_.end()) {
    fmt::print(stderr, "{}", leaf == &root ? root.help() : leaf->help());
    return kExitUsage;
  }
  ApplyConfig(*leaf, it->second.section, config);
  return it->second.run();
}

int ExitCodeFor(const Error& error) { return error.kind() == ErrorKind::kInvalidArgument ? kExitUsage : kExitFailure; }

int NotBuiltYet(std::string_view name, std::string_view what, int issue) {
  fmt::print(stderr, "floe {}: not built yet: {} lands with issue #{}.\n", name, what, issue);
  return kExitNotBuilt;
}

Status CheckExposedBind(std::string_view flag, std::string_view host, bool has_users, bool insecure) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(std::string(host), ec);
  bool loopback = host == "localhost" || (!ec && address.is_loopback());
  if (loopback || has_users) return OkStatus();
  if (!insecure) {
    return InvalidArgument("{} {} is reachable from other machines and no --auth-file is given: add users, bind "
                           "127.0.0.1, or pass --insecure-bind", flag, host);
  }
  Logger("cli")->warn("{} {}: listening beyond loopback without authentication (--insecure-bind)", flag, host);
  return OkStatus();
}

}  // namespace floe::cli
