// server/parser/keywords.cpp
//
// The keyword table: PostgreSQL's reserved, type/function-name and
// column-name keyword lists (from its documented keyword appendix), so the
// same words need quoting here as there.
#include "parser/keywords.h"

#include <algorithm>
#include <array>

namespace hearth::parser {
namespace {

struct Entry {
  std::string_view word;
  KeywordCategory category;
};

constexpr KeywordCategory R = KeywordCategory::kReserved;
constexpr KeywordCategory T = KeywordCategory::kTypeFuncName;
constexpr KeywordCategory C = KeywordCategory::kColName;

// Sorted by word (checked once at first use); binary searched.
constexpr std::array kKeywords = {
    Entry{"all", R},          Entry{"analyse", R},         Entry{"analyze", R},
    Entry{"and", R},          Entry{"any", R},             Entry{"array", R},
    Entry{"as", R},           Entry{"asc", R},             Entry{"asymmetric", R},
    Entry{"authorization", T}, Entry{"between", C},        Entry{"bigint", C},
    Entry{"binary", T},       Entry{"bit", C},             Entry{"boolean", C},
    Entry{"both", R},         Entry{"case", R},            Entry{"cast", R},
    Entry{"char", C},         Entry{"character", C},       Entry{"check", R},
    Entry{"coalesce", C},     Entry{"collate", R},         Entry{"collation", T},
    Entry{"column", R},       Entry{"concurrently", T},    Entry{"constraint", R},
    Entry{"create", R},       Entry{"cross", T},           Entry{"current_catalog", R},
    Entry{"current_date", R}, Entry{"current_role", R},    Entry{"current_schema", T},
    Entry{"current_time", R}, Entry{"current_timestamp", R}, Entry{"current_user", R},
    Entry{"dec", C},          Entry{"decimal", C},         Entry{"default", R},
    Entry{"deferrable", R},   Entry{"desc", R},            Entry{"distinct", R},
    Entry{"do", R},           Entry{"else", R},            Entry{"end", R},
    Entry{"except", R},       Entry{"exists", C},          Entry{"extract", C},
    Entry{"false", R},        Entry{"fetch", R},           Entry{"float", C},
    Entry{"for", R},          Entry{"foreign", R},         Entry{"freeze", T},
    Entry{"from", R},         Entry{"full", T},            Entry{"grant", R},
    Entry{"greatest", C},     Entry{"group", R},           Entry{"grouping", C},
    Entry{"having", R},       Entry{"ilike", T},           Entry{"in", R},
    Entry{"initially", R},    Entry{"inner", T},           Entry{"inout", C},
    Entry{"int", C},          Entry{"integer", C},         Entry{"intersect", R},
    Entry{"interval", C},     Entry{"into", R},            Entry{"is", T},
    Entry{"isnull", T},       Entry{"join", T},            Entry{"lateral", R},
    Entry{"leading", R},      Entry{"least", C},           Entry{"left", T},
    Entry{"like", T},         Entry{"limit", R},           Entry{"localtime", R},
    Entry{"localtimestamp", R}, Entry{"national", C},      Entry{"natural", T},
    Entry{"nchar", C},        Entry{"none", C},            Entry{"normalize", C},
    Entry{"not", R},          Entry{"notnull", T},         Entry{"null", R},
    Entry{"nullif", C},       Entry{"numeric", C},         Entry{"offset", R},
    Entry{"on", R},           Entry{"only", R},            Entry{"or", R},
    Entry{"order", R},        Entry{"out", C},             Entry{"outer", T},
    Entry{"overlaps", T},     Entry{"overlay", C},         Entry{"placing", R},
    Entry{"position", C},     Entry{"precision", C},       Entry{"primary", R},
    Entry{"real", C},         Entry{"references", R},      Entry{"returning", R},
    Entry{"right", T},        Entry{"row", C},             Entry{"select", R},
    Entry{"session_user", R}, Entry{"setof", C},           Entry{"similar", T},
    Entry{"smallint", C},     Entry{"some", R},            Entry{"substring", C},
    Entry{"symmetric", R},    Entry{"table", R},           Entry{"tablesample", T},
    Entry{"then", R},         Entry{"time", C},            Entry{"timestamp", C},
    Entry{"to", R},           Entry{"trailing", R},        Entry{"treat", C},
    Entry{"trim", C},         Entry{"true", R},            Entry{"union", R},
    Entry{"unique", R},       Entry{"user", R},            Entry{"using", R},
    Entry{"values", C},       Entry{"varchar", C},         Entry{"variadic", R},
    Entry{"verbose", T},      Entry{"when", R},            Entry{"where", R},
    Entry{"window", R},       Entry{"with", R},
};

constexpr bool IsSorted() {
  for (size_t i = 1; i < kKeywords.size(); ++i) {
    if (!(kKeywords[i - 1].word < kKeywords[i].word)) return false;
  }
  return true;
}
static_assert(IsSorted(), "kKeywords must be sorted for binary search");

}  // namespace

KeywordCategory LookupKeyword(std::string_view lower_word) {
  auto it = std::lower_bound(kKeywords.begin(), kKeywords.end(), lower_word,
                             [](const Entry& e, std::string_view w) { return e.word < w; });
  if (it != kKeywords.end() && it->word == lower_word) return it->category;
  return KeywordCategory::kNone;
}

}  // namespace hearth::parser
