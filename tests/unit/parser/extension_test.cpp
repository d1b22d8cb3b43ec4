// tests/unit/parser/extension_test.cpp: CREATE EXTENSION / DROP EXTENSION.
#include "test_util.h"

namespace hearth::parser {
namespace {

using test::ParseAs;

TEST_CASE("create extension: name and options", "[parser][extension]") {
  StmtPtr h;
  const auto& plain = ParseAs<CreateExtensionStmt>("CREATE EXTENSION pg_buffercache", h);
  CHECK(plain.name == "pg_buffercache");
  CHECK_FALSE(plain.if_not_exists);
  CHECK(std::string(StatementName(*h)) == "CREATE EXTENSION");
  const auto& full = ParseAs<CreateExtensionStmt>(
      "create extension if not exists \"Pg_Buffercache\" with schema public version '1.3' cascade", h);
  CHECK(full.if_not_exists);
  CHECK(full.name == "Pg_Buffercache");
  CHECK(full.schema == "public");
  CHECK(full.version == "1.3");
  CHECK(full.cascade);
  CHECK(test::ParseError("create extension").sqlstate == "42601");
  CHECK(test::ParseError("create extension x foo").sqlstate == "42601");
}

TEST_CASE("drop extension: names, IF EXISTS, CASCADE", "[parser][extension]") {
  StmtPtr h;
  const auto& s = ParseAs<DropStmt>("drop extension if exists a, b cascade", h);
  CHECK(s.object_type == ObjectType::kExtension);
  CHECK(s.if_exists);
  REQUIRE(s.objects.size() == 2);
  CHECK(s.objects[1].name == "b");
  CHECK(s.behavior == DropBehavior::kCascade);
  CHECK(std::string(StatementName(*h)) == "DROP EXTENSION");
}

}  // namespace
}  // namespace hearth::parser
