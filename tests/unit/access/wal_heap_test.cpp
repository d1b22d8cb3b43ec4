// Heap WAL and crash recovery in one process: rows committed before a
// "crash" (shared memory discarded, data pages never written) come back from
// WAL; a transaction in progress at the crash leaves nothing; replay over
// pages that already hold the changes skips them (page LSN); a torn page
// written after a checkpoint is restored from its full-page image; the
// commit record's relation list drops files at redo.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "wal_test_cluster.h"

#include "access/heap/heap_wal.h"
#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/heap/hio.h"
#include "access/heap/pruneheap.h"
#include "access/transam/clog.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_fpi.h"
#include "access/transam/xlog_recovery.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_storage_records.h"
#include "access/transam/xlog_xact_records.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

using namespace hearth;
using heap::Row;
using heap::TupleDesc;
using types::Value;

namespace {

// A cluster whose Crash() throws away shared memory (buffer pool, unflushed
// WAL buffers, clog buffers) and starts again through recovery, as the
// postmaster does after a crash.
// One-process WAL fixture (wal_test_cluster.h).
struct WalHeapCluster : hearth::testing::WalTestCluster {
  WalHeapCluster() : WalTestCluster(6) {}
};

const TupleDesc& Desc() {
  static const TupleDesc d = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid});
  return d;
}

Row MakeRow(int id) { return Row{Value::Int4(id), Value::Text("row-" + std::to_string(id) + std::string(60, 'x'))}; }

// ids visible to a new transaction, sorted.
std::vector<int> Ids(storage::RelFileLocator rel) {
  access::StartTransaction();
  const access::Snapshot& snap = access::GetTransactionSnapshot();
  std::vector<int> out;
  {
    heap::HeapScan scan(rel, Desc(), snap, access::GetCurrentTransactionIdIfAny());
    Row row;
    heap::ItemPointer tid;
    while (scan.Next(&row, &tid)) {
      REQUIRE(row[1].str == MakeRow(static_cast<int>(row[0].i))[1].str);
      out.push_back(static_cast<int>(row[0].i));
    }
  }
  access::CommitTransaction();
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> Range(int from, int to) {
  std::vector<int> v;
  for (int i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Inserts ids [from, to) one by one and commits; returns their tids.
std::vector<heap::ItemPointer> InsertCommitted(storage::RelFileLocator rel, int from, int to) {
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  const auto cid = access::GetCurrentCommandId(true);
  std::vector<heap::ItemPointer> tids;
  for (int i = from; i < to; ++i) tids.push_back(heap::HeapInsert(rel, Desc(), MakeRow(i), xid, cid));
  access::CommitTransaction();
  return tids;
}

// A copy of block 0 of `rel` as it is in the buffer pool now.
std::vector<char> Block0(storage::RelFileLocator rel) {
  std::vector<char> copy(storage::kBlockSize);
  storage::PinnedBuffer b = storage::ReadBuffer(rel, storage::ForkNumber::kMain, 0);
  b.Lock(storage::LWLockMode::kShared);
  std::memcpy(copy.data(), b.page().data(), storage::kBlockSize);
  return copy;
}

// Line pointers (state, place, length) that differ between two copies of a
// page (tuple hint bits may differ legitimately; line pointers may not).
int DifferingLinePointers(std::vector<char>& a, std::vector<char>& b) {
  storage::Page x(a.data()), y(b.data());
  if (x.MaxOffset() != y.MaxOffset() || x.Upper() != y.Upper()) return -1;
  int differing = 0;
  for (storage::OffsetNumber off = 1; off <= x.MaxOffset(); ++off) {
    if (x.GetItemId(off).word != y.GetItemId(off).word) ++differing;
  }
  return differing;
}

}  // namespace

TEST_CASE("wal: committed inserts, deletes and updates survive a crash; in-progress work does not", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20000);
  auto tids = InsertCommitted(rel, 0, 400);  // several pages, one record per row
  // A multi-insert transaction (one record per page).
  {
    access::StartTransaction();
    std::vector<Row> rows;
    for (int i = 400; i < 700; ++i) rows.push_back(MakeRow(i));
    heap::HeapMultiInsert(rel, Desc(), rows, access::GetCurrentTransactionId(), access::GetCurrentCommandId(true),
                          heap::HeapInsertOptions{}, nullptr);
    access::CommitTransaction();
  }
  // Delete 0..9, update 10..19 to ids 1010..1019.
  {
    access::StartTransaction();
    const auto xid = access::GetCurrentTransactionId();
    const auto cid = access::GetCurrentCommandId(true);
    for (int i = 0; i < 10; ++i) REQUIRE(heap::HeapDelete(rel, tids[i], xid, cid, nullptr, true, nullptr) == access::TmResult::kOk);
    for (int i = 10; i < 20; ++i) {
      heap::ItemPointer nt;
      REQUIRE(heap::HeapUpdate(rel, tids[i], Desc(), MakeRow(1000 + i), xid, cid, nullptr, true, nullptr, &nt) ==
              access::TmResult::kOk);
    }
    access::CommitTransaction();
  }
  // A transaction that is still running at the crash (in a child, so this
  // process's transaction state stays clean); its WAL reaches the disk.
  pid_t pid = fork();
  if (pid == 0) {
    storage::ReleaseProcSlot();
    storage::ClaimProcSlot(1, storage::BackendType::kClient);
    access::StartTransaction();
    const auto xid = access::GetCurrentTransactionId();
    const auto cid = access::GetCurrentCommandId(true);
    for (int i = 5000; i < 5050; ++i) heap::HeapInsert(rel, Desc(), MakeRow(i), xid, cid);
    (void)heap::HeapDelete(rel, tids[100], xid, cid, nullptr, true, nullptr);
    access::XLogFlush(access::XLogInsertEndPosition());
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));

  std::vector<int> expect = Range(20, 700);
  for (int i = 1010; i < 1020; ++i) expect.push_back(i);
  std::sort(expect.begin(), expect.end());
  CHECK(Ids(rel) == expect);

  c.Crash();
  CHECK(c.last.replay.records > 450);  // 400 single inserts, multi-insert pages, deletes, updates, ...  
  CHECK(c.last.xids_aborted == 1);
  CHECK(Ids(rel) == expect);
  // New work after recovery lands on the recovered pages, and survives too.
  InsertCommitted(rel, 2000, 2100);
  c.Crash();
  auto expect2 = expect;
  for (int i = 2000; i < 2100; ++i) expect2.push_back(i);
  CHECK(Ids(rel) == expect2);
}

TEST_CASE("wal: replay skips pages that already hold the change (idempotent redo)", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20001);
  auto tids = InsertCommitted(rel, 0, 300);
  {
    access::StartTransaction();
    const auto xid = access::GetCurrentTransactionId();
    const auto cid = access::GetCurrentCommandId(true);
    for (int i = 0; i < 30; ++i) REQUIRE(heap::HeapDelete(rel, tids[i], xid, cid, nullptr, true, nullptr) == access::TmResult::kOk);
    access::CommitTransaction();
  }
  // Data pages (and clog) reach the disk, but no checkpoint moves the redo
  // point: recovery replays every record over pages that already have it.
  REQUIRE(storage::FlushAllBuffers().ok());
  access::TransamCheckpoint();
  c.Crash();
  CHECK(c.last.replay.records >= 330);
  CHECK(Ids(rel) == Range(30, 300));
  // And again: recovery's own checkpoint leaves nothing to redo.
  c.Crash();
  CHECK(Ids(rel) == Range(30, 300));
}

TEST_CASE("wal: the first change after a checkpoint logs a full page; redo restores a torn page from it",
          "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20002);
  InsertCommitted(rel, 0, 50);  // all on block 0
  access::CreateCheckPoint(false);
  const uint64_t before = heap::HeapWalFullPageImages();
  InsertCommitted(rel, 50, 51);
  CHECK(heap::HeapWalFullPageImages() == before + 1);  // first change since the checkpoint
  InsertCommitted(rel, 51, 52);
  CHECK(heap::HeapWalFullPageImages() == before + 1);  // the page already has an image in this cycle
  REQUIRE(storage::FlushAllBuffers().ok());
  // Tear block 0 on disk: its second half becomes garbage.
  {
    const std::string path = storage::SmgrSegmentPath(rel, storage::ForkNumber::kMain, 0);
    int fd = open(path.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    std::vector<char> junk(4096, '\x5a');
    REQUIRE(pwrite(fd, junk.data(), junk.size(), 4096) == 4096);
    close(fd);
  }
  c.Crash();
  CHECK(Ids(rel) == Range(0, 52));
}

TEST_CASE("wal: a committed drop removes the file at redo; an aborted transaction's rows stay invisible",
          "[wal_heap]") {
  WalHeapCluster c;
  auto keep = c.CreateRel(20003);
  auto drop = c.CreateRel(20004);
  InsertCommitted(keep, 0, 20);
  InsertCommitted(drop, 0, 20);
  // Aborted insert (abort record, not flushed by itself: flushed by the next commit).
  {
    access::StartTransaction();
    heap::HeapInsert(keep, Desc(), MakeRow(99), access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
    access::AbortTransaction();
  }
  // Commit a transaction that "drops" `drop`: its commit record lists the file.
  static storage::RelFileLocator to_drop(storage::kDefaultDatabaseId, 0u);
  to_drop = drop;
  access::SetXactRelsProvider([](bool at_commit, int, std::vector<storage::RelFileLocator>* out) {
    if (at_commit) out->push_back(to_drop);
  });
  access::StartTransaction();
  (void)access::GetCurrentTransactionId();
  access::CommitTransaction();
  access::SetXactRelsProvider(nullptr);
  // The backend would unlink it now; the crash comes first.
  REQUIRE(storage::SmgrExists(drop, storage::ForkNumber::kMain));
  c.Crash();
  CHECK_FALSE(storage::SmgrExists(drop, storage::ForkNumber::kMain));
  CHECK(Ids(keep) == Range(0, 20));
}

TEST_CASE("wal: an insert checked against a stale redo pointer is refused, not written", "[wal_heap]") {
  WalHeapCluster c;
  access::RegisterRmgr(access::kRmgrTest, "Test", [](const access::XLogRecordView&) {});
  const access::XLogRecPtr redo = access::GetRedoRecPtr();
  REQUIRE(redo != 0);
  const uint64_t payload = 42;
  const access::XLogPart part{&payload, sizeof(payload)};
  const access::XLogRecPtr before = access::XLogInsertEndPosition();
  CHECK(access::XLogInsertIfRedoIs(redo + 8, access::kRmgrTest, 0, 0, std::span<const access::XLogPart>(&part, 1),
                                   0) == 0);
  CHECK(access::XLogInsertEndPosition() == before);
  const access::XLogRecPtr end =
      access::XLogInsertIfRedoIs(redo, access::kRmgrTest, 0, 0, std::span<const access::XLogPart>(&part, 1), 0);
  CHECK(end > before);
  CHECK(access::XLogInsertEndPosition() == end);
}

TEST_CASE("wal: checkpoints racing with a writer process leave a recoverable cluster", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20005);
  pid_t pid = fork();
  if (pid == 0) {
    storage::ReleaseProcSlot();
    storage::ClaimProcSlot(1, storage::BackendType::kClient);
    for (int batch = 0; batch < 100; ++batch) {
      usleep(1000);  // let the parent's checkpoints interleave
      access::StartTransaction();
      const auto xid = access::GetCurrentTransactionId();
      const auto cid = access::GetCurrentCommandId(true);
      for (int i = batch * 20; i < batch * 20 + 20; ++i) heap::HeapInsert(rel, Desc(), MakeRow(i), xid, cid);
      if (batch % 3 == 0) {
        // Some deletes too, so pages see header changes around checkpoints.
        (void)heap::HeapLockTuple(rel, heap::ItemPointer{0, 1}, xid, cid, true, nullptr);
      }
      access::CommitTransaction();
    }
    storage::ReleaseProcSlot();
    _exit(0);
  }
  int checkpoints = 0;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    access::CreateCheckPoint(false);
    ++checkpoints;
  }
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK(checkpoints > 1);
  c.Crash();
  CHECK(Ids(rel) == Range(0, 2000));
}

TEST_CASE("wal: synchronous_commit=off commits without a flush; hints wait for the background flush",
          "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20006);
  access::SetCommitDelaySettings(0, 0, /*synchronous_commit=*/false);
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  heap::HeapInsert(rel, Desc(), MakeRow(1), xid, access::GetCurrentCommandId(true));
  access::CommitTransaction();
  access::SetCommitDelaySettings(0, 5, true);
  CHECK(access::TransactionIdDidCommit(xid));
  CHECK(access::XLogFlushedUpTo() < access::XLogInsertEndPosition());
  CHECK_FALSE(access::XactCommitIsDurable(xid));
  CHECK(access::XLogBackgroundFlush());  // the walwriter's round
  CHECK(access::XLogFlushedUpTo() == access::XLogInsertEndPosition());
  CHECK(access::XactCommitIsDurable(xid));
  c.Crash();
  CHECK(Ids(rel) == std::vector<int>{1});
}

TEST_CASE("wal: a synchronous commit is flushed before CommitTransaction returns", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20007);
  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  heap::HeapInsert(rel, Desc(), MakeRow(1), xid, access::GetCurrentCommandId(true));
  CHECK(storage::MyProc()->wrote_wal.load());
  access::CommitTransaction();
  CHECK_FALSE(storage::MyProc()->wrote_wal.load());
  CHECK(access::XLogFlushedUpTo() == access::XLogInsertEndPosition());
  CHECK(access::XactCommitIsDurable(xid));
}

TEST_CASE("wal: generic page images (LogPageImages) are restored by recovery", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20008);
  const std::string item = "an index tuple, say";
  {
    storage::PinnedBuffer a = storage::ExtendRelation(rel, storage::ForkNumber::kMain);
    storage::PinnedBuffer b = storage::ExtendRelation(rel, storage::ForkNumber::kMain);
    a.page().Init(16);
    b.page().Init(16);
    REQUIRE(a.page().AddItem(std::span<const char>(item.data(), item.size())) == 1);
    a.MarkDirty();
    b.MarkDirty();
    storage::PinnedBuffer* pages[] = {&a, &b};
    const access::XLogRecPtr end = access::LogPageImages(pages, 0);
    CHECK(end != 0);
    CHECK(a.page().lsn() == end);
    CHECK(b.page().lsn() == end);
    access::XLogFlush(end);
  }
  c.Crash();  // neither page was ever written to the data file
  storage::ReadPageGuard g = storage::ReadPageShared(rel, storage::ForkNumber::kMain, 0);
  REQUIRE(g.page().MaxOffset() == 1);
  std::span<char> got = g.page().GetItem(1);
  CHECK(std::string(got.data(), got.size()) == item);
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) == 2);
}

TEST_CASE("wal: updates that prune a full page replay to the same page", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20010);
  auto tids = InsertCommitted(rel, 0, 20);  // all on block 0
  // A checkpoint first, so the prunes below are logged as offsets, not images.
  access::CreateCheckPoint(false);
  const uint64_t pruned_before = heap::HeapPagesPruned();
  // Update the 20 rows again and again (each in its own transaction): the
  // page fills with dead versions and the updater prunes it.
  for (int round = 0; round < 30; ++round) {
    for (int i = 0; i < 20; ++i) {
      access::StartTransaction();
      heap::ItemPointer ntid;
      heap::TmFailureData fd;
      REQUIRE(heap::HeapUpdate(rel, tids[i], Desc(), MakeRow(i), access::GetCurrentTransactionId(),
                               access::GetCurrentCommandId(true), nullptr, true, &fd, &ntid) == access::TmResult::kOk);
      tids[i] = ntid;
      access::CommitTransaction();
    }
  }
  REQUIRE(heap::HeapPagesPruned() > pruned_before);
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) <= 2);  // 620 versions would need 7 pages
  std::vector<char> before = Block0(rel);
  access::XLogFlush(access::XLogInsertEndPosition());
  c.Crash();  // the page comes back from the checkpoint's copy plus the records
  CHECK(Ids(rel) == Range(0, 20));
  std::vector<char> after = Block0(rel);
  CHECK(DifferingLinePointers(before, after) == 0);
}

TEST_CASE("wal: HOT updates and the redirects pruning leaves replay to the same page", "[wal_heap]") {
  WalHeapCluster c;
  auto rel = c.CreateRel(20011);
  auto tids = InsertCommitted(rel, 0, 10);  // all on block 0
  access::CreateCheckPoint(false);
  const uint64_t pruned_before = heap::HeapPagesPruned();
  std::vector<heap::ItemPointer> roots = tids;
  int hot = 0;
  for (int round = 0; round < 60; ++round) {
    for (int i = 0; i < 10; ++i) {
      access::StartTransaction();
      heap::ItemPointer ntid;
      heap::TmFailureData fd;
      heap::HotUpdate h;  // no indexed column: every same-page update is HOT
      REQUIRE(heap::HeapUpdate(rel, tids[i], Desc(), MakeRow(i), access::GetCurrentTransactionId(),
                               access::GetCurrentCommandId(true), nullptr, true, &fd, &ntid, {}, &h) ==
              access::TmResult::kOk);
      hot += h.was_hot ? 1 : 0;
      tids[i] = ntid;
      access::CommitTransaction();
    }
  }
  CHECK(hot == 600);  // pruning always made room on the page
  REQUIRE(heap::HeapPagesPruned() > pruned_before);
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) == 1);
  std::vector<char> before = Block0(rel);
  // Pruning left redirects at the original roots.
  int redirects = 0;
  storage::Page pg(before.data());
  for (storage::OffsetNumber off = 1; off <= pg.MaxOffset(); ++off)
    redirects += pg.GetItemId(off).state() == storage::ItemState::kRedirect ? 1 : 0;
  CHECK(redirects == 10);
  access::XLogFlush(access::XLogInsertEndPosition());
  c.Crash();
  CHECK(Ids(rel) == Range(0, 10));
  std::vector<char> after = Block0(rel);
  CHECK(DifferingLinePointers(before, after) == 0);
  // Each original root still leads to its row's only visible version.
  access::StartTransaction();
  for (int i = 0; i < 10; ++i) {
    Row row;
    heap::ItemPointer found;
    REQUIRE(heap::HeapFetch(rel, Desc(), roots[i], access::GetTransactionSnapshot(), 0, &row, &found));
    CHECK(row[0].i == i);
    CHECK(found == tids[i]);
  }
  access::CommitTransaction();
}
