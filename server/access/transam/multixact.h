// access/transam/multixact.h
//
// Row-lock modes and multixacts: the set of transactions that together hold
// row locks on one tuple version (PostgreSQL's MultiXactId, for shared
// lockers only). A tuple whose lock-only xmax names several lockers carries
// kHeapXmaxIsMulti and a multixact id in t_xmax; the members live here.
//
// Storage: a fixed open-addressing table in transam's shared area (no SLRU,
// no WAL). Multixacts only ever describe lockers (an updater is always the
// plain t_xmax of the version it replaced), and locks do not survive a
// restart, so a multixact that is unknown (after a restart, or reclaimed
// once all its members ended) simply has no live member — it can never make
// a row invisible. Ids come from the xid counter (GetNewTransactionId without
// a proc slot), so they are never reused, not even across restarts.
//
// Process safety: any process after TransamStartup; one LWLock guards the
// table. Lock order: the multixact lock is taken with no buffer lock
// requirement either way, and the proc array is consulted while holding it
// (never the reverse).
#pragma once

#include <cstdint>
#include <span>

#include "access/transam/transam.h"

namespace hearth::access {

// PostgreSQL's four tuple lock strengths, weakest first (values index the
// conflict rule below). DELETE and a key-changing UPDATE take kUpdate
// strength; an UPDATE that changes no unique-index column takes kNoKeyUpdate.
enum class RowLockMode : uint8_t { kKeyShare = 0, kShare = 1, kNoKeyUpdate = 2, kUpdate = 3 };

// PostgreSQL's tuple-lock conflict table: KEY SHARE conflicts only with
// UPDATE, SHARE with NO KEY UPDATE and UPDATE, NO KEY UPDATE with SHARE and
// stronger, UPDATE with everything — i.e. exactly when the ranks add up to 3+.
inline bool RowLockModesConflict(RowLockMode a, RowLockMode b) {
  return static_cast<int>(a) + static_cast<int>(b) >= 3;
}
const char* RowLockModeName(RowLockMode m);  // "FOR KEY SHARE", ...

struct RowLocker {
  TransactionId xid = kInvalidTransactionId;
  RowLockMode mode = RowLockMode::kKeyShare;
};

// Most lockers one multixact can hold (more concurrent shared lockers of one
// row fail with 53200).
inline constexpr int kMultiXactMaxMembers = 32;
inline constexpr int kMultiXactSlots = 256;

// Creates a multixact of `members` (1..kMultiXactMaxMembers, distinct xids)
// and returns its id. Reclaims entries whose members (and updater) have all
// ended when the table is full; throws DbError 53200 when it is still full.
// `updater`/`cmax`: for the lockers a non-key UPDATE left in place on the
// version it replaced (kHeapXmaxHasLockers, htup.h): the updater's cmax
// lives here while it runs (t_cid holds the multixact id).
TransactionId MultiXactCreate(std::span<const RowLocker> members, TransactionId updater = kInvalidTransactionId,
                              CommandId cmax = kInvalidCommandId);

// The cmax stored with `multi`; kInvalidCommandId when unknown.
CommandId MultiXactGetCmax(TransactionId multi);

// Copies the members of `multi` into out (capacity kMultiXactMaxMembers) and
// returns their number; 0 when the multixact is unknown (no live members).
int MultiXactGetMembers(TransactionId multi, RowLocker* out);

}  // namespace hearth::access
