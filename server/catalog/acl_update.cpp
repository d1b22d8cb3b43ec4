// catalog/acl_update.cpp
//
// Principal entry points: AclGrantOptionMask, AclDirectGrantOptions,
// AclCheckCircularity, AclRevokeFrom — the grant-option bookkeeping of
// PostgreSQL's aclupdate / recursive_revoke / check_circularity.
#include <algorithm>

#include "catalog/acl.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

constexpr uint32_t kAllPrivs = 0xffffffffu;

// Grant options `grantee` lost; revoked in turn from what it granted on.
void RecursiveRevoke(Acl& acl, Oid grantee, uint32_t lost, Oid owner, bool cascade, const HasPrivsOfFn& has_privs_of) {
  if (grantee == owner) return;  // the owner never loses grant options
  lost &= ~AclGrantOptionMask(acl, grantee, owner, has_privs_of);
  if (lost == 0) return;
  for (;;) {
    auto dep = std::find_if(acl.begin(), acl.end(),
                            [&](const AclItem& it) { return it.grantor == grantee && (it.privs & lost) != 0; });
    if (dep == acl.end()) return;
    if (!cascade) {
      throw DbError("2BP01", "dependent privileges exist").WithHint("Use CASCADE to revoke them too.");
    }
    AclRevokeFrom(acl, dep->grantee, dep->grantor, lost, /*grant_option_only=*/false, owner, cascade, has_privs_of);
  }
}

}  // namespace

uint32_t AclGrantOptionMask(const Acl& acl, Oid role, Oid owner, const HasPrivsOfFn& has_privs_of) {
  if (role == owner) return kAllPrivs;
  uint32_t mask = 0;
  for (const AclItem& it : acl) {
    if (it.grantee == 0 || it.grantee == role) mask |= it.grant_options;
  }
  for (const AclItem& it : acl) {
    if ((it.grant_options & ~mask) != 0 && it.grantee != 0 && it.grantee != role && has_privs_of(role, it.grantee)) {
      mask |= it.grant_options;
    }
  }
  if (owner != 0 && (mask != kAllPrivs) && has_privs_of(role, owner)) return kAllPrivs;
  return mask;
}

uint32_t AclDirectGrantOptions(const Acl& acl, Oid role, Oid owner) {
  if (role == owner) return kAllPrivs;
  uint32_t mask = 0;
  for (const AclItem& it : acl) {
    if (it.grantee == role) mask |= it.grant_options;
  }
  return mask;
}

void AclCheckCircularity(const Acl& acl, Oid grantee, Oid grantor, uint32_t goptions, Oid owner,
                         const HasPrivsOfFn& has_privs_of) {
  if (grantor == owner || goptions == 0) return;
  // Without every grant option the grantee holds (and what hangs on them),
  // the grantor must still hold the options it is granting.
  Acl without = acl;
  for (;;) {
    auto it = std::find_if(without.begin(), without.end(),
                           [&](const AclItem& i) { return i.grantee == grantee && i.grant_options != 0; });
    if (it == without.end()) break;
    AclRevokeFrom(without, it->grantee, it->grantor, it->grant_options, /*grant_option_only=*/true, owner,
                  /*cascade=*/true, has_privs_of);
  }
  if ((goptions & ~AclGrantOptionMask(without, grantor, owner, has_privs_of)) != 0) {
    throw DbError("0LP01", "grant options cannot be granted back to your own grantor");
  }
}

void AclRevokeFrom(Acl& acl, Oid grantee, Oid grantor, uint32_t privs, bool grant_option_only, Oid owner,
                   bool cascade, const HasPrivsOfFn& has_privs_of) {
  auto it = std::find_if(acl.begin(), acl.end(),
                         [&](const AclItem& i) { return i.grantee == grantee && i.grantor == grantor; });
  if (it == acl.end()) return;
  const uint32_t old_goptions = it->grant_options;
  it->grant_options &= ~privs;
  if (!grant_option_only) it->privs &= ~privs;
  const uint32_t lost = old_goptions & ~it->grant_options;
  if (it->privs == 0) acl.erase(it);
  if (lost != 0 && grantee != 0) RecursiveRevoke(acl, grantee, lost, owner, cascade, has_privs_of);
}

}  // namespace hearth::catalog
