#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"

using namespace hearth::storage;

TEST_CASE("Shmem regions are aligned, named and found again", "[shmem]") {
  auto seg = ShmemSegment::Create(1 << 20);
  void* a = seg->Allocate("alpha", 100);
  void* b = seg->Allocate("beta", 5000, 4096);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  CHECK(reinterpret_cast<uintptr_t>(b) % 4096 == 0);
  CHECK(seg->Find("alpha") == a);
  CHECK(seg->Find("beta") == b);
  CHECK(seg->Find("gamma") == nullptr);
  CHECK_THROWS(seg->Allocate("alpha", 10));
  CHECK_THROWS(seg->Allocate("huge", size_t{1} << 30));
}

TEST_CASE("Shmem is shared with a forked child", "[shmem]") {
  auto seg = ShmemSegment::Create(1 << 16);
  auto* counter = static_cast<int*>(seg->Allocate("counter", sizeof(int)));
  *counter = 1;
  pid_t pid = fork();
  if (pid == 0) {
    *counter = 42;
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(*counter == 42);
}

TEST_CASE("Proc array counts WAL-writing siblings not waiting on locks", "[proc]") {
  ShmemParams p;
  p.max_connections = 4;
  p.max_aux_processes = 2;
  p.nbuffers = 16;
  auto seg = CreateSharedMemory(p);
  REQUIRE(ProcArray()->nslots == 6);
  ClaimProcSlot(0, BackendType::kClient);
  CHECK(MyProc()->pid.load() == getpid());
  ProcArray()->slots[1].type = BackendType::kClient;
  ProcArray()->slots[1].wrote_wal = true;
  ProcArray()->slots[2].type = BackendType::kClient;
  ProcArray()->slots[2].wrote_wal = true;
  ProcArray()->slots[2].waiting_on_lock = true;
  ProcArray()->slots[5].type = BackendType::kWalWriter;
  ProcArray()->slots[5].wrote_wal = true;
  MyProc()->wrote_wal = true;
  CHECK(CountActiveWalWriters(0) == 1);
  ReleaseProcSlot();
  CHECK(MyProc() == nullptr);
}
