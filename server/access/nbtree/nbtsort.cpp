// access/nbtree/nbtsort.cpp
//
// Bottom-up build (CREATE INDEX): encode every entry into one arena, sort
// in memory, fill leaves left to right to 90%, then each upper level from
// the downlinks of the level below (70%), until one page remains: the root.
// Pages are written through a BULKWRITE ring so a build does not flush the
// pool; each finished page and the metapage are WAL-logged as full images.
// The index is invisible to others during the build.
// Principal entry points: BtBuilder::Add, BtBuilder::Finish, BtBuild.
#include <algorithm>
#include <stdexcept>

#include "access/nbtree/nbtree_internal.h"
#include "access/transam/xlog.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::nbtree {
namespace {

using storage::ForkNumber;
using storage::kInvalidBlockNumber;
using storage::kInvalidOffsetNumber;

struct Downlink {
  BlockNumber block;
  std::string key;  // the child's low key ("" = minus infinity)
};

// Fills the pages of one level left to right.
class LevelWriter {
 public:
  LevelWriter(const IndexDesc& index, storage::BufferAccessStrategy* strategy, uint16_t level, size_t reserve)
      : index_(index), strategy_(strategy), level_(level), reserve_(reserve),
        limit_(static_cast<size_t>(kPageUsable * (level == 0 ? 0.90 : 0.70))) {}

  // Adds an item (leaf entry, or internal item [child][key]). `hk_if_new`
  // is the high key the current page gets if this item starts a new page
  // (computed lazily by the caller through `make_hk`).
  template <typename MakeHk, typename MakeFirst>
  void Add(std::span<const char> item, MakeHk make_hk, MakeFirst make_first) {
    if (!cur_.valid()) Start(kInvalidBlockNumber, "");
    Page p = cur_.page();
    const size_t cost = ItemCost(item.size());
    if (items_ > 0 && (used_ + cost > limit_ || p.FreeSpace() < cost + reserve_)) {
      std::string hk = make_hk();
      Close(hk, false);
      std::string first = make_first();
      Put(std::span<const char>(first));
      return;
    }
    Put(item);
  }

  // Closes the last page; returns the downlinks of this level.
  std::vector<Downlink> Finish() {
    if (cur_.valid()) Close("", true);
    return std::move(out_);
  }

 private:
  void Start(BlockNumber left, std::string low) {
    cur_ = storage::ExtendRelation(index_.rel, ForkNumber::kMain, strategy_);
    InitBtPage(cur_.page(), level_, level_ == 0 ? kBtLeaf : 0, left, kInvalidBlockNumber);
    used_ = 0;
    items_ = 0;
    low_ = std::move(low);
  }
  void Put(std::span<const char> item) {
    if (cur_.page().AddItem(item) == kInvalidOffsetNumber) ThrowCorrupt(index_, "build: item does not fit");
    used_ += ItemCost(item.size());
    ++items_;
  }
  void Close(const std::string& hk, bool last) {
    // A build logs every page: on a full disk, 53100 here (the new index
    // goes with the aborted transaction) rather than WAL beyond the files.
    access::XLogEnsureSpaceForChange();
    Page p = cur_.page();
    if (last) {
      if (out_.empty()) Opaque(p)->flags |= kBtRoot;  // the only page of its level
      out_.push_back({cur_.block(), low_});
      cur_.MarkDirty();
      LogBtPage(cur_);
      cur_.Release();
      return;
    }
    PinnedBuffer next = storage::ExtendRelation(index_.rel, ForkNumber::kMain, strategy_);
    Opaque(p)->right = next.block();
    if (p.InsertItemAt(std::span<const char>(hk), kHighKeyOffset) == kInvalidOffsetNumber)
      ThrowCorrupt(index_, "build: high key does not fit");
    out_.push_back({cur_.block(), low_});
    BlockNumber left = cur_.block();
    cur_.MarkDirty();
    // WAL: each finished page is logged as a full image before its lock is
    // dropped (the ring may write it out soon after; the bufmgr flushes WAL
    // up to its LSN first), so a crash after commit replays a complete index.
    LogBtPage(cur_);
    cur_ = std::move(next);
    InitBtPage(cur_.page(), level_, level_ == 0 ? kBtLeaf : 0, left, kInvalidBlockNumber);
    used_ = 0;
    items_ = 0;
    low_ = hk;
  }

  const IndexDesc& index_;
  storage::BufferAccessStrategy* strategy_;
  uint16_t level_;
  size_t reserve_;
  size_t limit_;
  PinnedBuffer cur_;
  size_t used_ = 0;
  size_t items_ = 0;
  std::string low_;
  std::vector<Downlink> out_;
};

}  // namespace

BtBuilder::BtBuilder(const IndexDesc& index) : index_(index) {
  if (index.cols.empty() || index.cols.size() > static_cast<size_t>(kMaxKeyColumns))
    throw std::invalid_argument("nbtree: an index has 1 to 32 key columns");
}

void BtBuilder::Add(std::span<const types::Value> key, ItemPointer tid) {
  if (key.size() != index_.cols.size()) throw std::invalid_argument("BtBuilder::Add: wrong number of key columns");
  static std::string tmp;
  tmp.clear();
  EncodeKey(index_, key, &tmp);
  AppendTid(tid, &tmp);
  if (tmp.size() > kMaxEntrySize)
    ThrowEntryTooLarge(tmp.size(), index_);
  items_.emplace_back(static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(tmp.size()));
  arena_.insert(arena_.end(), tmp.begin(), tmp.end());
  max_len_ = std::max(max_len_, tmp.size());
}

size_t BtBuilder::Finish(bool input_sorted) {
  const char* base = arena_.data();
  auto span_of = [&](const std::pair<uint32_t, uint32_t>& it) {
    return std::span<const char>(base + it.first, it.second);
  };
  if (!input_sorted)
    std::sort(items_.begin(), items_.end(),
              [&](const auto& a, const auto& b) { return CompareBytes(span_of(a), span_of(b)) < 0; });

  PinnedBuffer meta = storage::ExtendRelation(index_.rel, ForkNumber::kMain);
  if (meta.block() != kMetaBlock) throw std::logic_error("BtBuilder: the index fork is not empty");
  meta.page().Init(sizeof(BtMeta));
  BtMeta* m = Meta(meta.page());
  m->magic = kBtMetaMagic;
  m->version = kBtVersion;
  m->root = m->fastroot = kInvalidBlockNumber;
  m->level = m->fastlevel = 0;
  m->natts = static_cast<uint32_t>(index_.cols.size());
  for (size_t i = 0; i < index_.cols.size(); ++i) {
    m->cols[i].type = index_.cols[i].type;
    m->cols[i].flags = static_cast<uint8_t>((index_.cols[i].descending ? 1 : 0) | (index_.cols[i].nulls_first ? 2 : 0));
  }
  meta.MarkDirty();
  if (items_.empty()) {
    LogBtPage(meta);
    return 0;
  }
  meta.Unlock();  // logged once, in its final state, after the tree

  auto strategy = storage::GetAccessStrategy(storage::StrategyType::kBulkWrite);
  std::vector<Downlink> links;
  {
    LevelWriter w(index_, strategy.get(), 0, ItemCost(max_len_));
    for (size_t i = 0; i < items_.size(); ++i) {
      std::span<const char> e = span_of(items_[i]);
      w.Add(
          e,
          [&] {
            // Suffix truncation: shortest prefix of e that sorts after the previous entry.
            std::span<const char> l = span_of(items_[i - 1]);
            size_t d = 0;
            while (d < l.size() && d < e.size() && l[d] == e[d]) ++d;
            if (d >= e.size())
              throw DbError(sqlstate::kInternalError, "build: duplicate index entry (same key and TID)");
            return std::string(e.data(), d + 1);
          },
          [&] { return std::string(e.data(), e.size()); });
    }
    links = w.Finish();
  }
  uint16_t level = 0;
  while (links.size() > 1) {
    ++level;
    size_t max_key = 0;
    for (const Downlink& d : links) max_key = std::max(max_key, d.key.size());
    LevelWriter w(index_, strategy.get(), level, ItemCost(max_key + 4));
    std::string item, first;
    for (const Downlink& d : links) {
      MakeInternalItem(d.block, d.key, &item);
      w.Add(
          std::span<const char>(item), [&] { return d.key; },
          [&] {
            MakeInternalItem(d.block, {}, &first);  // first item of an internal page: minus infinity
            return first;
          });
    }
    links = w.Finish();
  }
  meta.Lock(storage::LWLockMode::kExclusive);
  m = Meta(meta.page());
  m->root = m->fastroot = links[0].block;
  m->level = m->fastlevel = level;
  meta.MarkDirty();
  LogBtPage(meta);
  return items_.size();
}

size_t BtBuild(const IndexDesc& index, const std::function<bool(std::vector<types::Value>*, ItemPointer*)>& next,
               bool input_sorted) {
  BtBuilder b(index);
  std::vector<types::Value> key;
  ItemPointer tid;
  while (next(&key, &tid)) b.Add(key, tid);
  return b.Finish(input_sorted);
}

}  // namespace hearth::nbtree
