#pragma once
// The store's schema as a list of forward migrations (DESIGN.md §3). Version N is reached by
// applying steps 1..N in order; a store records its version in perfgate_schema.
#include <string>
#include <vector>

#include "sqlite.hpp"

namespace perfgate::baselines {

inline constexpr int kStoreSchemaVersion = 2;

// SQL of migration step `to_version` (1-based). Exposed so tests can build old stores.
const std::vector<std::string>& migration_steps();

// Version recorded in the store: 0 for an empty database. Throws ToolError when the file holds
// tables but is not a perfgate store.
int stored_schema_version(sql::Database& db);

// Applies every missing step inside one BEGIN IMMEDIATE transaction (concurrent openers wait
// and then find nothing to do). Throws ToolError for a store written by a newer perfgate.
void migrate(sql::Database& db);

// Read-only openers cannot migrate: refuses stores that are newer, older or not perfgate's.
void check_readable_version(sql::Database& db);

}  // namespace perfgate::baselines
