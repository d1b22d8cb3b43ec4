// catalog/acl.cpp
//
// Principal entry points: EffectiveAcl, FormatAcl, ParseAcl, AclMask,
// AclGrant, AclNewOwner (revoking: acl_update.cpp).
#include "catalog/acl.h"

#include <algorithm>

namespace hearth::catalog {

namespace {

constexpr char kLetters[] = "arwdDxtXUCTc";  // bit i ↔ kLetters[i]
constexpr int kNumLetters = 12;

// A role name as aclitem text shows it: double-quoted when it is not a
// plain lower-case identifier.
std::string QuoteName(const std::string& name) {
  bool plain = !name.empty();
  for (char c : name) plain &= (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Reads a possibly quoted name at `pos` up to one of `stops`.
std::optional<std::string> ReadName(const std::string& s, size_t& pos, const char* stops) {
  std::string out;
  if (pos < s.size() && s[pos] == '"') {
    ++pos;
    for (;;) {
      if (pos >= s.size()) return std::nullopt;
      if (s[pos] == '"') {
        if (pos + 1 < s.size() && s[pos + 1] == '"') {
          out += '"';
          pos += 2;
          continue;
        }
        ++pos;
        return out;
      }
      out += s[pos++];
    }
  }
  while (pos < s.size() && std::string(stops).find(s[pos]) == std::string::npos) out += s[pos++];
  return out;
}

}  // namespace

Acl EffectiveAcl(const std::optional<std::string>& stored, Oid owner,
                 const std::function<Oid(const std::string&)>& role_oid, uint32_t owner_privs) {
  if (stored) {
    if (auto acl = ParseAcl(*stored, role_oid)) return *acl;
  }
  return Acl{AclItem{owner, owner, owner_privs, 0}};
}

std::string FormatAcl(const Acl& acl, const std::function<std::string(Oid)>& role_name) {
  std::string out = "{";
  for (size_t i = 0; i < acl.size(); ++i) {
    const AclItem& it = acl[i];
    if (i > 0) out += ',';
    std::string item = it.grantee == 0 ? "" : QuoteName(role_name(it.grantee));
    item += '=';
    for (int b = 0; b < kNumLetters; ++b) {
      if (it.privs & (1u << b)) {
        item += kLetters[b];
        if (it.grant_options & (1u << b)) item += '*';
      }
    }
    item += '/' + QuoteName(role_name(it.grantor));
    // The array element needs quotes when it contains quotes or commas.
    if (item.find_first_of("\",{} ") != std::string::npos) {
      std::string q = "\"";
      for (char c : item) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
      }
      item = q + "\"";
    }
    out += item;
  }
  return out + "}";
}

std::optional<Acl> ParseAcl(const std::string& text, const std::function<Oid(const std::string&)>& role_oid) {
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return std::nullopt;
  Acl acl;
  size_t pos = 1;
  const size_t end = text.size() - 1;
  while (pos < end) {
    // Array elements may be quoted as a whole (with backslash escapes).
    std::string item;
    if (text[pos] == '"') {
      ++pos;
      while (pos < end && text[pos] != '"') {
        if (text[pos] == '\\') ++pos;
        item += text[pos++];
      }
      ++pos;
    } else {
      while (pos < end && text[pos] != ',') item += text[pos++];
    }
    if (pos < end && text[pos] == ',') ++pos;
    size_t p = 0;
    auto grantee = ReadName(item, p, "=");
    if (!grantee || p >= item.size() || item[p] != '=') return std::nullopt;
    ++p;
    AclItem it;
    if (!grantee->empty()) {
      it.grantee = role_oid(*grantee);
      if (it.grantee == 0) return std::nullopt;
    }
    while (p < item.size() && item[p] != '/') {
      const char* at = std::char_traits<char>::find(kLetters, kNumLetters, item[p]);
      if (at == nullptr) return std::nullopt;
      const uint32_t bit = 1u << (at - kLetters);
      it.privs |= bit;
      ++p;
      if (p < item.size() && item[p] == '*') {
        it.grant_options |= bit;
        ++p;
      }
    }
    if (p >= item.size()) return std::nullopt;
    ++p;
    auto grantor = ReadName(item, p, "");
    if (!grantor || grantor->empty()) return std::nullopt;
    it.grantor = role_oid(*grantor);
    if (it.grantor == 0) return std::nullopt;
    acl.push_back(it);
  }
  return acl;
}

uint32_t AclMask(const Acl& acl, Oid role, const std::function<bool(Oid, Oid)>& has_privs_of) {
  // Direct and PUBLIC entries first; memberships only for the rest.
  uint32_t mask = 0;
  for (const AclItem& it : acl) {
    if (it.grantee == 0 || it.grantee == role) mask |= it.privs;
  }
  for (const AclItem& it : acl) {
    if ((it.privs & ~mask) != 0 && it.grantee != 0 && it.grantee != role && has_privs_of(role, it.grantee)) {
      mask |= it.privs;
    }
  }
  return mask;
}

void AclGrant(Acl& acl, Oid grantee, Oid grantor, uint32_t privs, bool with_grant_option) {
  for (AclItem& it : acl) {
    if (it.grantee == grantee && it.grantor == grantor) {
      it.privs |= privs;
      if (with_grant_option) it.grant_options |= privs;
      return;
    }
  }
  acl.push_back(AclItem{grantee, grantor, privs, with_grant_option ? privs : 0});
}

Acl AclNewOwner(const Acl& acl, Oid old_owner, Oid new_owner) {
  Acl out;
  for (AclItem it : acl) {
    if (it.grantee == old_owner) it.grantee = new_owner;
    if (it.grantor == old_owner) it.grantor = new_owner;
    auto same = std::find_if(out.begin(), out.end(), [&](const AclItem& o) {
      return o.grantee == it.grantee && o.grantor == it.grantor;
    });
    if (same == out.end()) {
      out.push_back(it);
    } else {
      same->privs |= it.privs;
      same->grant_options |= it.grant_options;
    }
  }
  std::erase_if(out, [](const AclItem& it) { return it.privs == 0; });
  return out;
}

uint32_t TablePrivilegeByName(const std::string& n) {
  if (n == "insert") return kAclInsert;
  if (n == "select") return kAclSelect;
  if (n == "update") return kAclUpdate;
  if (n == "delete") return kAclDelete;
  if (n == "truncate") return kAclTruncate;
  if (n == "references") return kAclReferences;
  if (n == "trigger") return kAclTrigger;
  if (n == "usage") return kAclUsage;
  return 0;
}

const char* TablePrivilegeName(uint32_t priv) {
  switch (priv) {
    case kAclInsert: return "INSERT";
    case kAclSelect: return "SELECT";
    case kAclUpdate: return "UPDATE";
    case kAclDelete: return "DELETE";
    case kAclTruncate: return "TRUNCATE";
    case kAclReferences: return "REFERENCES";
    case kAclTrigger: return "TRIGGER";
    case kAclUsage: return "USAGE";
    default: return "";
  }
}

}  // namespace hearth::catalog
