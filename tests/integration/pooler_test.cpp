// Connection poolers in front of Hearth, over the wire: pgbouncer in
// transaction mode under pgbench, and pgpool-II in streaming-replication
// mode with load balancing in front of a primary and its standby (health
// and streaming-replication checks, writes to the primary, SELECTs to the
// standby). The configurations are the ones docs/scale-out.md shows.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "crash_util.h"
#include "pg_tools.h"
#include "standby_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// A pooler running in the foreground as a child of the test, its output in
// `log_path`; stopped with `stop_signal` (then SIGKILL of its process
// group) when the object dies.
class PoolerProcess {
 public:
  PoolerProcess(const std::vector<std::string>& argv, std::string log_path, int stop_signal)
      : log_path_(std::move(log_path)), stop_signal_(stop_signal) {
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      const int fd = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
      }
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
  }
  ~PoolerProcess() {
    if (pid_ <= 0) return;
    kill(pid_, stop_signal_);
    const bool gone = WaitFor([&] { return waitpid(pid_, nullptr, WNOHANG) == pid_; }, 10000);
    kill(-pid_, SIGKILL);  // its children (pgpool's), and itself if it hung
    if (!gone) waitpid(pid_, nullptr, 0);
  }
  PoolerProcess(const PoolerProcess&) = delete;
  PoolerProcess& operator=(const PoolerProcess&) = delete;

  bool running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }
  std::string log() const { return ReadWholeFile(log_path_); }

 private:
  std::string log_path_;
  int stop_signal_;
  pid_t pid_ = -1;
};

// A fresh directory for a pooler's files, readable by everyone (pgbouncer
// refuses to run as root and drops to `nobody` when the tests run as root);
// removed with everything in it when the object dies.
class PoolerDir {
 public:
  explicit PoolerDir(const char* tag) {
    std::string tmpl = std::string("/tmp/hearth-") + tag + "-XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    chmod(tmpl.c_str(), 0777);
    path_ = tmpl;
  }
  ~PoolerDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  PoolerDir(const PoolerDir&) = delete;
  PoolerDir& operator=(const PoolerDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  REQUIRE(out.good());
  out.close();
  chmod(path.c_str(), 0644);
}

// psql through a pooler on `port` (no server object: the pooler is the server).
CommandResult PsqlAt(int port, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(port),
                                "-U", "hearth", "-d", "hearth", "-v", "ON_ERROR_STOP=1"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv);
}

std::string PsqlValueAt(int port, const std::string& sql) {
  CommandResult r = PsqlAt(port, {"-A", "-t", "-q", "-c", sql});
  if (r.exit_code != 0) return "";
  std::string v = r.out;
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  return v;
}

std::vector<std::string> SplitFields(const std::string& row) {
  std::vector<std::string> fields;
  std::stringstream ss(row);
  std::string f;
  while (std::getline(ss, f, '|')) fields.push_back(f);
  return fields;
}

// SHOW POOL_NODES as {node_id → fields}: status [3], role [6], pg_role [7],
// select_cnt [8], replication_state [11].
std::vector<std::vector<std::string>> PoolNodes(int port) {
  std::vector<std::vector<std::string>> nodes;
  std::stringstream rows(PsqlValueAt(port, "show pool_nodes"));
  std::string row;
  while (std::getline(rows, row)) nodes.push_back(SplitFields(row));
  return nodes;
}

}  // namespace

TEST_CASE("pooler: pgbench -c 8 through pgbouncer in transaction mode", "[pooler_test]") {
  TestServer server;
  CommandResult init = RunCommand({PgBin("pgbench"), "-i", "-s", "1", "-q", "-h", "127.0.0.1", "-p",
                                   std::to_string(server.port()), "-U", "hearth", "hearth"});
  INFO(init.out << init.err);
  REQUIRE(init.exit_code == 0);

  const PoolerDir pooler_dir("pgbouncer");
  const std::string& dir = pooler_dir.path();
  const int port = FreePort();
  // Two server connections for eight clients: only transaction pooling
  // lets them all run (session pooling would keep six waiting).
  WriteFile(dir + "/pgbouncer.ini",
            "[databases]\n"
            "hearth = host=127.0.0.1 port=" + std::to_string(server.port()) + " dbname=hearth\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            "listen_port = " + std::to_string(port) + "\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            "auth_file = " + dir + "/userlist.txt\n"
            "pool_mode = transaction\n"
            "default_pool_size = 2\n"
            "max_client_conn = 50\n");
  WriteFile(dir + "/userlist.txt", "\"hearth\" \"\"\n");
  std::vector<std::string> argv{"pgbouncer"};
  if (geteuid() == 0) argv.insert(argv.end(), {"-u", "nobody"});
  argv.push_back(dir + "/pgbouncer.ini");
  PoolerProcess bouncer(argv, dir + "/pgbouncer.log", SIGTERM);
  const bool up = WaitFor([&] { return PsqlValueAt(port, "select 1") == "1"; }, 30000);
  INFO("pgbouncer log:\n" << bouncer.log());
  REQUIRE(up);

  CommandResult bench = RunCommand({PgBin("pgbench"), "-c", "8", "-j", "2", "-t", "50", "-h", "127.0.0.1", "-p",
                                    std::to_string(port), "-U", "hearth", "hearth"});
  INFO(bench.out << bench.err << "\npgbouncer log:\n" << bouncer.log() << "\nserver log:\n" << server.log());
  REQUIRE(bench.exit_code == 0);
  CHECK(Contains(bench.out, "number of transactions actually processed: 400/400"));
  CHECK(Contains(bench.out, "number of failed transactions: 0 (0.000%)"));

  // Every transaction's three balance updates and its history row.
  CHECK(PsqlInt(server, "select count(*) from pgbench_history") == 400);
  const int64_t delta = PsqlInt(server, "select coalesce(sum(delta), 0) from pgbench_history");
  CHECK(PsqlInt(server, "select sum(abalance) from pgbench_accounts") == delta);
  CHECK(PsqlInt(server, "select sum(bbalance) from pgbench_branches") == delta);
  CHECK(PsqlInt(server, "select sum(tbalance) from pgbench_tellers") == delta);
  // pgbouncer held at most its two server connections.
  CHECK(PsqlInt(server, "select count(*) from pg_stat_activity where client_port is not null") <= 3);
}

TEST_CASE("pooler: pgpool-II balances SELECTs to the standby and writes to the primary", "[pooler_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table lb (id int primary key, v text)"}).exit_code == 0);
  REQUIRE(primary.Psql({"-c", "insert into lb select g, 'x' from generate_series(1, 10) g"}).exit_code == 0);
  const std::string copy = BackupForStandby(primary);
  TestServer standby(TestServer::ExistingDataDir{copy}, {});
  WaitForValue(standby, "select count(*) from lb", "10");

  const PoolerDir pooler_dir("pgpool");
  const std::string& dir = pooler_dir.path();
  const int port = FreePort();
  const int pcp_port = FreePort();
  WriteFile(dir + "/pgpool.conf",
            "backend_clustering_mode = 'streaming_replication'\n"
            "listen_addresses = '127.0.0.1'\n"
            "port = " + std::to_string(port) + "\n"
            "socket_dir = '" + dir + "'\n"
            "pcp_listen_addresses = ''\n"
            "pcp_port = " + std::to_string(pcp_port) + "\n"
            "pcp_socket_dir = '" + dir + "'\n"
            "pid_file_name = '" + dir + "/pgpool.pid'\n"
            "logdir = '" + dir + "'\n"
            "backend_hostname0 = '127.0.0.1'\n"
            "backend_port0 = " + std::to_string(primary.port()) + "\n"
            "backend_weight0 = 0\n"
            "backend_flag0 = 'DISALLOW_TO_FAILOVER'\n"
            "backend_hostname1 = '127.0.0.1'\n"
            "backend_port1 = " + std::to_string(standby.port()) + "\n"
            "backend_weight1 = 1\n"
            "backend_flag1 = 'DISALLOW_TO_FAILOVER'\n"
            "backend_application_name1 = 'walreceiver'\n"
            "load_balance_mode = on\n"
            "sr_check_period = 1\n"
            "sr_check_user = 'hearth'\n"
            "sr_check_database = 'hearth'\n"
            "health_check_period = 1\n"
            "health_check_user = 'hearth'\n"
            "health_check_database = 'hearth'\n"
            "enable_pool_hba = off\n"
            "num_init_children = 4\n"
            "max_pool = 2\n"
            "use_watchdog = off\n"
            "memory_cache_enabled = off\n");
  WriteFile(dir + "/pcp.conf", "");
  PoolerProcess pgpool({"pgpool", "-n", "-D", "-f", dir + "/pgpool.conf", "-F", dir + "/pcp.conf"},
                       dir + "/pgpool.log", SIGINT);

  // Both nodes up, in their roles, the standby streaming (pgpool's
  // streaming-replication check reads pg_stat_replication on the primary).
  std::vector<std::vector<std::string>> nodes;
  const bool seen = WaitFor(
      [&] {
        nodes = PoolNodes(port);
        return nodes.size() == 2 && nodes[0].size() >= 12 && nodes[1].size() >= 12 &&
               nodes[1][11] == "streaming";
      },
      60000);
  INFO("pgpool log:\n" << pgpool.log() << "\nprimary log:\n" << primary.log());
  REQUIRE(seen);
  CHECK(nodes[0][3] == "up");
  CHECK(nodes[0][6] == "primary");
  CHECK(nodes[0][7] == "primary");
  CHECK(nodes[1][3] == "up");
  CHECK(nodes[1][6] == "standby");
  CHECK(nodes[1][7] == "standby");
  CHECK(nodes[0][8] == "0");
  CHECK(nodes[1][8] == "0");

  // A write goes to the primary (on the standby it would fail with 25006).
  CommandResult write = PsqlAt(port, {"-c", "insert into lb values (11, 'through pgpool')"});
  INFO(write.out << write.err);
  REQUIRE(write.exit_code == 0);
  CHECK(primary.PsqlValue("select v from lb where id = 11") == "through pgpool");
  WaitForValue(standby, "select count(*) from lb", "11");

  // SELECTs go to the standby: its select_cnt counts them, the primary's
  // stays 0; the answers are the replicated rows.
  for (int i = 0; i < 5; i++) CHECK(PsqlValueAt(port, "select count(*) from lb") == "11");
  nodes = PoolNodes(port);
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0][8] == "0");
  CHECK(std::stoll(nodes[1][8]) >= 5);
  CHECK(pgpool.running());
}
