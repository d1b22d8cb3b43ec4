// config/registry.cpp
//
// The table of every setting, plus lookup helpers.
// Principal entry points: AllSettings(), FindSetting(), FindSettingIndex().
//
// To add a setting: append a SettingDef to kSettings in the right category
// block (see config/README.md), then regenerate config/hearth.conf.sample
// (HEARTH_UPDATE_SAMPLE=1 ./config_test "[sample]").

#include "config/registry.h"

#include <array>
#include <cctype>
#include <string>
#include <unordered_map>

#include "config/check_hooks.h"
#include "config/enums.h"

namespace hearth::config {
namespace {

constexpr int64_t kIntMax = 2147483647;  // PostgreSQL's int GUCs are int32

// ---- enum option lists --------------------------------------------------

constexpr EnumOption kSyncCommitOptions[] = {
    {"local", static_cast<int>(SynchronousCommit::kLocal)},
    {"remote_write", static_cast<int>(SynchronousCommit::kRemoteWrite)},
    {"remote_apply", static_cast<int>(SynchronousCommit::kRemoteApply)},
    {"on", static_cast<int>(SynchronousCommit::kOn)},
    {"off", static_cast<int>(SynchronousCommit::kOff)},
    {"true", static_cast<int>(SynchronousCommit::kOn), true},
    {"false", static_cast<int>(SynchronousCommit::kOff), true},
    {"yes", static_cast<int>(SynchronousCommit::kOn), true},
    {"no", static_cast<int>(SynchronousCommit::kOff), true},
    {"1", static_cast<int>(SynchronousCommit::kOn), true},
    {"0", static_cast<int>(SynchronousCommit::kOff), true},
};

constexpr EnumOption kWalSyncMethodOptions[] = {
    {"fsync", static_cast<int>(WalSyncMethod::kFsync)},
    {"fdatasync", static_cast<int>(WalSyncMethod::kFdatasync)},
    {"open_datasync", static_cast<int>(WalSyncMethod::kOpenDatasync)},
};

constexpr EnumOption kWalLevelOptions[] = {
    {"minimal", static_cast<int>(WalLevel::kMinimal)},
    {"replica", static_cast<int>(WalLevel::kReplica)},
    {"logical", static_cast<int>(WalLevel::kLogical)},
    {"archive", static_cast<int>(WalLevel::kReplica), true},
    {"hot_standby", static_cast<int>(WalLevel::kReplica), true},
};

constexpr EnumOption kClientMessageOptions[] = {
    {"debug5", static_cast<int>(MessageLevel::kDebug5)},
    {"debug4", static_cast<int>(MessageLevel::kDebug4)},
    {"debug3", static_cast<int>(MessageLevel::kDebug3)},
    {"debug2", static_cast<int>(MessageLevel::kDebug2)},
    {"debug1", static_cast<int>(MessageLevel::kDebug1)},
    {"log", static_cast<int>(MessageLevel::kLog)},
    {"notice", static_cast<int>(MessageLevel::kNotice)},
    {"warning", static_cast<int>(MessageLevel::kWarning)},
    {"error", static_cast<int>(MessageLevel::kError)},
    {"debug", static_cast<int>(MessageLevel::kDebug2), true},
    {"info", static_cast<int>(MessageLevel::kInfo), true},
};

constexpr EnumOption kServerMessageOptions[] = {
    {"debug5", static_cast<int>(MessageLevel::kDebug5)},
    {"debug4", static_cast<int>(MessageLevel::kDebug4)},
    {"debug3", static_cast<int>(MessageLevel::kDebug3)},
    {"debug2", static_cast<int>(MessageLevel::kDebug2)},
    {"debug1", static_cast<int>(MessageLevel::kDebug1)},
    {"info", static_cast<int>(MessageLevel::kInfo)},
    {"notice", static_cast<int>(MessageLevel::kNotice)},
    {"warning", static_cast<int>(MessageLevel::kWarning)},
    {"error", static_cast<int>(MessageLevel::kError)},
    {"log", static_cast<int>(MessageLevel::kLogServer)},
    {"fatal", static_cast<int>(MessageLevel::kFatal)},
    {"panic", static_cast<int>(MessageLevel::kPanic)},
    {"debug", static_cast<int>(MessageLevel::kDebug2), true},
};

constexpr EnumOption kLogStatementOptions[] = {
    {"none", static_cast<int>(LogStatement::kNone)},
    {"ddl", static_cast<int>(LogStatement::kDdl)},
    {"mod", static_cast<int>(LogStatement::kMod)},
    {"all", static_cast<int>(LogStatement::kAll)},
};

constexpr EnumOption kIsolationOptions[] = {
    {"serializable", static_cast<int>(IsolationLevel::kSerializable)},
    {"repeatable read", static_cast<int>(IsolationLevel::kRepeatableRead)},
    {"read committed", static_cast<int>(IsolationLevel::kReadCommitted)},
    {"read uncommitted", static_cast<int>(IsolationLevel::kReadUncommitted)},
};

constexpr EnumOption kIntervalStyleOptions[] = {
    {"postgres", static_cast<int>(IntervalStyle::kPostgres)},
    {"postgres_verbose", static_cast<int>(IntervalStyle::kPostgresVerbose)},
    {"sql_standard", static_cast<int>(IntervalStyle::kSqlStandard)},
    {"iso_8601", static_cast<int>(IntervalStyle::kIso8601)},
};

constexpr EnumOption kPasswordEncryptionOptions[] = {
    {"md5", 0},
    {"scram-sha-256", 1},
};

constexpr EnumOption kXmlOptionOptions[] = {
    {"content", 0},
    {"document", 1},
};

// TOAST compresses with lz4 whichever is chosen: 'pglz' is accepted (and
// shown) as PostgreSQL's default, its values are stored as lz4.
constexpr EnumOption kToastCompressionOptions[] = {
    {"pglz", 1},
    {"lz4", 2},
};

constexpr EnumOption kByteaOutputOptions[] = {
    {"escape", static_cast<int>(ByteaOutput::kEscape)},
    {"hex", static_cast<int>(ByteaOutput::kHex)},
};

using enum SettingType;
using enum Context;
using enum Category;
using enum Unit;

// ---- the table ----------------------------------------------------------
// Grouped by category, in hearth.conf.sample order. Bounds are in the base
// unit. Defaults are text in hearth.conf syntax and are parsed (and range
// checked) like any other value; a unit test verifies they all parse.

const SettingDef kSettings[] = {
    // FILE LOCATIONS
    {.name = "data_directory", .type = kString, .context = kInternal,
     .category = kFileLocations, .boot_value = "", .flags = kNoSample,
     .description = "Shows the server's data directory."},
    {.name = "hba_file", .type = kString, .context = kPostmaster, .category = kFileLocations,
     .boot_value = "",
     .description = "Sets the server's \"hba\" configuration file (empty: pg_hba.conf in the data directory)."},

    // CONNECTIONS AND AUTHENTICATION
    {.name = "listen_addresses", .type = kString, .context = kPostmaster,
     .category = kConnections, .boot_value = "127.0.0.1", .flags = kListInput,
     .description = "Sets the host name or IP address(es) to listen to."},
    {.name = "port", .type = kInt, .context = kPostmaster, .category = kConnections,
     .boot_value = "5433", .min_int = 1, .max_int = 65535,
     .description = "Sets the TCP port the server listens on."},
    {.name = "max_connections", .type = kInt, .context = kPostmaster,
     .category = kConnections, .boot_value = "100", .min_int = 1, .max_int = 262143,
     .description = "Sets the maximum number of concurrent connections."},
    {.name = "superuser_reserved_connections", .type = kInt, .context = kPostmaster,
     .category = kConnections, .boot_value = "3", .min_int = 0, .max_int = 262143,
     .description = "Sets the number of connection slots reserved for superusers."},
    {.name = "authentication_timeout", .type = kInt, .context = kSighup,
     .category = kConnections, .boot_value = "1min", .unit = kSeconds, .min_int = 1,
     .max_int = 600,
     .description = "Sets the maximum allowed time to complete client authentication."},
    {.name = "ssl", .type = kBool, .context = kSighup, .category = kConnections, .boot_value = "off",
     .description = "Enables SSL connections."},
    {.name = "ssl_cert_file", .type = kString, .context = kSighup, .category = kConnections,
     .boot_value = "server.crt", .description = "Location of the SSL server certificate file."},
    {.name = "ssl_key_file", .type = kString, .context = kSighup, .category = kConnections,
     .boot_value = "server.key", .description = "Location of the SSL server private key file."},
    {.name = "password_encryption", .type = kEnum, .context = kUser, .category = kConnections,
     .boot_value = "scram-sha-256", .options = kPasswordEncryptionOptions,
     .description = "Chooses the algorithm for encrypting passwords."},
    {.name = "client_connection_check_interval", .type = kInt, .context = kUser,
     .category = kConnections, .boot_value = "0", .unit = kMilliseconds, .min_int = 0,
     .max_int = kIntMax,
     .description = "Sets the time interval between checks for disconnection while running queries."},
    {.name = "tcp_keepalives_idle", .type = kInt, .context = kUser, .category = kConnections,
     .boot_value = "0", .unit = kSeconds, .min_int = 0, .max_int = kIntMax,
     .description = "Time between issuing TCP keepalives."},
    {.name = "tcp_keepalives_interval", .type = kInt, .context = kUser,
     .category = kConnections, .boot_value = "0", .unit = kSeconds, .min_int = 0,
     .max_int = kIntMax, .description = "Time between TCP keepalive retransmits."},
    {.name = "tcp_keepalives_count", .type = kInt, .context = kUser, .category = kConnections,
     .boot_value = "0", .min_int = 0, .max_int = kIntMax,
     .description = "Maximum number of TCP keepalive retransmits."},
    {.name = "tcp_user_timeout", .type = kInt, .context = kUser, .category = kConnections,
     .boot_value = "0", .unit = kMilliseconds, .min_int = 0, .max_int = kIntMax,
     .description = "TCP user timeout."},
    {.name = "max_message_size", .type = kInt, .context = kPostmaster,
     .category = kConnections, .boot_value = "1GB", .unit = kBytes, .min_int = 1048576,
     .max_int = 1073741824,
     .description = "Sets the largest protocol message a client may send."},

    // RESOURCE USAGE
    {.name = "shared_buffers", .type = kInt, .context = kPostmaster, .category = kResources,
     .boot_value = "128MB", .unit = kBlocks, .min_int = 16, .max_int = kIntMax / 2,
     .description = "Sets the number of shared memory buffers used by the server."},
    {.name = "relation_size_cache", .type = kInt, .context = kPostmaster, .category = kResources,
     .boot_value = "131072", .min_int = 1024, .max_int = 67108864,
     .description = "Sets the number of relation forks whose size is kept in shared memory "
                    "(beyond it, cached sizes are evicted and re-read from the files)."},
    {.name = "enable_async_append", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of async append plans."},
    {.name = "enable_bitmapscan", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of bitmap-scan plans."},
    {.name = "enable_gathermerge", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of gather merge plans."},
    {.name = "enable_hashagg", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of hashed aggregation plans."},
    {.name = "enable_hashjoin", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of hash join plans."},
    {.name = "enable_incremental_sort", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of incremental sort steps."},
    {.name = "enable_indexonlyscan", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of index-only-scan plans."},
    {.name = "enable_indexscan", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of index-scan plans."},
    {.name = "enable_material", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of materialization."},
    {.name = "enable_memoize", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of memoization."},
    {.name = "enable_mergejoin", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of merge join plans."},
    {.name = "enable_nestloop", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of nested-loop join plans."},
    {.name = "enable_parallel_append", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of parallel append plans."},
    {.name = "enable_parallel_hash", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of parallel hash plans."},
    {.name = "enable_partition_pruning", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables plan-time and execution-time partition pruning."},
    {.name = "enable_partitionwise_join", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "off",
     .description = "Enables partitionwise join."},
    {.name = "enable_partitionwise_aggregate", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "off",
     .description = "Enables partitionwise aggregation and grouping."},
    {.name = "enable_seqscan", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of sequential-scan plans."},
    {.name = "enable_sort", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of explicit sort steps."},
    {.name = "enable_tidscan", .type = kBool, .context = kUser, .category = kQueryTuning, .boot_value = "on",
     .description = "Enables the planner's use of TID scan plans."},
    {.name = "seq_page_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "1",
     .min_real = 0, .max_real = 1.79769e+308, .description = "Sets the planner's estimate of the cost of a sequentially fetched disk page."},
    {.name = "random_page_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "4",
     .min_real = 0, .max_real = 1.79769e+308, .description = "Sets the planner's estimate of the cost of a nonsequentially fetched disk page."},
    {.name = "cpu_tuple_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "0.01",
     .min_real = 0, .max_real = 1.79769e+308, .description = "Sets the planner's estimate of the cost of processing each tuple (row)."},
    {.name = "cpu_index_tuple_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "0.005",
     .min_real = 0, .max_real = 1.79769e+308, .description = "Sets the planner's estimate of the cost of processing each index entry during an index scan."},
    {.name = "cpu_operator_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "0.0025",
     .min_real = 0, .max_real = 1.79769e+308, .description = "Sets the planner's estimate of the cost of processing each operator or function call."},
    {.name = "jit_above_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "100000",
     .min_real = -1, .max_real = 1.79769e+308, .description = "Perform JIT compilation if query is more expensive."},
    {.name = "jit_inline_above_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "500000",
     .min_real = -1, .max_real = 1.79769e+308, .description = "Perform JIT inlining if query is more expensive."},
    {.name = "jit_optimize_above_cost", .type = kReal, .context = kUser, .category = kQueryTuning, .boot_value = "500000",
     .min_real = -1, .max_real = 1.79769e+308, .description = "Optimize JIT-compiled functions if query is more expensive."},
    {.name = "effective_cache_size", .type = kInt, .context = kUser, .category = kQueryTuning,
     .boot_value = "4GB", .unit = kBlocks, .min_int = 1, .max_int = kIntMax,
     .description = "Sets the planner's assumption about the total size of the data caches."},
    {.name = "default_statistics_target", .type = kInt, .context = kUser, .category = kQueryTuning,
     .boot_value = "100", .min_int = 1, .max_int = 10000,
     .description = "Sets the default statistics target."},
    {.name = "from_collapse_limit", .type = kInt, .context = kUser, .category = kQueryTuning,
     .boot_value = "8", .min_int = 1, .max_int = kIntMax,
     .description = "Sets the FROM-list size beyond which subqueries are not collapsed."},
    {.name = "join_collapse_limit", .type = kInt, .context = kUser, .category = kQueryTuning,
     .boot_value = "8", .min_int = 1, .max_int = kIntMax,
     .description = "Sets the FROM-list size beyond which JOIN constructs are not flattened."},
    {.name = "work_mem", .type = kInt, .context = kUser, .category = kResources,
     .boot_value = "4MB", .unit = kKilobytes, .min_int = 64, .max_int = kIntMax,
     .description = "Sets the maximum memory to be used for query workspaces."},
    {.name = "hash_mem_multiplier", .type = kReal, .context = kUser, .category = kResources,
     .boot_value = "2", .min_real = 1, .max_real = 1000,
     .description = "Multiple of work_mem to use for hash tables."},
    {.name = "maintenance_work_mem", .type = kInt, .context = kUser, .category = kResources,
     .boot_value = "64MB", .unit = kKilobytes, .min_int = 1024, .max_int = kIntMax,
     .description = "Sets the maximum memory to be used for maintenance operations."},
    {.name = "temp_file_limit", .type = kInt, .context = kUser, .category = kResources,
     .boot_value = "-1", .unit = kKilobytes, .min_int = -1, .max_int = kIntMax,
     .description = "Limits the total size of all temporary files used by each process."},
    // The platform stack (8MB by default on Linux) minus PostgreSQL's 512kB
    // safety margin bounds it.
    {.name = "max_stack_depth", .type = kInt, .context = kUser, .category = kResources,
     .boot_value = "2MB", .unit = kKilobytes, .min_int = 100, .max_int = 7680,
     .description = "Sets the maximum stack depth, in kilobytes."},
    {.name = "max_prepared_transactions", .type = kInt, .context = kPostmaster,
     .category = kResources, .boot_value = "0", .min_int = 0, .max_int = 262143,
     .description = "Sets the maximum number of simultaneously prepared transactions."},
    {.name = "bgwriter_delay", .type = kInt, .context = kSighup, .category = kResources,
     .boot_value = "200ms", .unit = kMilliseconds, .min_int = 10, .max_int = 10000,
     .description = "Background writer sleep time between rounds."},
    {.name = "bgwriter_lru_maxpages", .type = kInt, .context = kSighup,
     .category = kResources, .boot_value = "100", .min_int = 0, .max_int = kIntMax / 2,
     .description = "Background writer maximum number of LRU pages to flush per round."},
    {.name = "bgwriter_lru_multiplier", .type = kReal, .context = kSighup,
     .category = kResources, .boot_value = "2.0", .min_real = 0, .max_real = 10,
     .description = "Multiple of the average buffer usage to free per round."},

    // WRITE-AHEAD LOG
    {.name = "wal_level", .type = kEnum, .context = kPostmaster, .category = kWal,
     .boot_value = "replica", .options = kWalLevelOptions,
     .description = "Sets the level of information written to the WAL."},
    {.name = "wal_skip_threshold", .type = kInt, .context = kUser, .category = kWal,
     .boot_value = "2MB", .unit = kKilobytes, .min_int = 0, .max_int = kIntMax,
     .description = "Minimum size of new file to fsync instead of writing WAL."},
    {.name = "max_wal_senders", .type = kInt, .context = kPostmaster, .category = kWal,
     .boot_value = "10", .min_int = 0, .max_int = 262143,
     .description = "Sets the maximum number of simultaneously running WAL sender processes."},
    {.name = "max_replication_slots", .type = kInt, .context = kPostmaster, .category = kWal,
     .boot_value = "10", .min_int = 0, .max_int = 64,
     .description = "Sets the maximum number of simultaneously defined replication slots."},
    {.name = "wal_keep_size", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "0", .unit = kMegabytes, .min_int = 0, .max_int = kIntMax,
     .description = "Sets the size of WAL files held for standby servers."},
    {.name = "synchronous_standby_names", .type = kString, .context = kSighup, .category = kWal,
     .boot_value = "",
     .description = "Number of synchronous standbys and list of names of potential synchronous ones."},
    {.name = "wal_sender_timeout", .type = kInt, .context = kUser, .category = kWal,
     .boot_value = "60s", .unit = kMilliseconds, .min_int = 0, .max_int = kIntMax,
     .description = "Sets the maximum time to wait for WAL replication."},
    // Standby servers (a data directory with standby.signal).
    {.name = "primary_conninfo", .type = kString, .context = kSighup, .category = kWal,
     .boot_value = "",
     .description = "Sets the connection string to be used to connect to the sending server."},
    {.name = "primary_slot_name", .type = kString, .context = kSighup, .category = kWal,
     .boot_value = "",
     .description = "Sets the name of the replication slot to use on the sending server."},
    {.name = "hot_standby", .type = kBool, .context = kPostmaster, .category = kWal,
     .boot_value = "on", .description = "Allows connections and queries during recovery."},
    {.name = "max_standby_streaming_delay", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "30s", .unit = kMilliseconds, .min_int = -1, .max_int = kIntMax,
     .description = "Sets the maximum delay before canceling queries when a hot standby server is processing "
                    "streamed WAL data."},
    {.name = "wal_receiver_status_interval", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "10s", .unit = kSeconds, .min_int = 0, .max_int = kIntMax / 1000,
     .description = "Sets the maximum interval between WAL receiver status reports to the sending server."},
    {.name = "wal_retrieve_retry_interval", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "5s", .unit = kMilliseconds, .min_int = 1, .max_int = kIntMax,
     .description = "Sets the time to wait before retrying to retrieve WAL after a failed attempt."},
    {.name = "fsync", .type = kBool, .context = kSighup, .category = kWal,
     .boot_value = "on", .description = "Forces synchronization of updates to disk."},
    {.name = "synchronous_commit", .type = kEnum, .context = kUser, .category = kWal,
     .boot_value = "on", .options = kSyncCommitOptions,
     .description = "Sets the current transaction's synchronization level."},
    {.name = "wal_sync_method", .type = kEnum, .context = kSighup, .category = kWal,
     .boot_value = "fdatasync", .options = kWalSyncMethodOptions,
     .description = "Selects the method used for forcing WAL updates to disk."},
    {.name = "full_page_writes", .type = kBool, .context = kSighup, .category = kWal,
     .boot_value = "on",
     .description = "Writes full pages to WAL when first modified after a checkpoint."},
    {.name = "wal_buffers", .type = kInt, .context = kPostmaster, .category = kWal,
     .boot_value = "16MB", .unit = kBlocks, .min_int = 4, .max_int = 262143,
     .description = "Sets the number of disk-page buffers in shared memory for WAL."},
    {.name = "wal_writer_delay", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "200ms", .unit = kMilliseconds, .min_int = 1, .max_int = 10000,
     .description = "Time between WAL flushes performed in the WAL writer."},
    {.name = "wal_writer_flush_after", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "1MB", .unit = kBlocks, .min_int = 0, .max_int = kIntMax,
     .description = "Amount of WAL written out by WAL writer that triggers a flush."},
    {.name = "commit_delay", .type = kInt, .context = kUser, .category = kWal,
     .boot_value = "0", .unit = kMicroseconds, .min_int = 0, .max_int = 100000,
     .description = "Sets the delay in microseconds between transaction commit and "
                    "flushing WAL to disk."},
    {.name = "commit_siblings", .type = kInt, .context = kUser, .category = kWal,
     .boot_value = "5", .min_int = 0, .max_int = 1000,
     .description = "Sets the minimum number of concurrent open transactions required "
                    "before performing commit_delay."},
    {.name = "checkpoint_timeout", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "5min", .unit = kSeconds, .min_int = 30, .max_int = 86400,
     .description = "Sets the maximum time between automatic WAL checkpoints."},
    {.name = "checkpoint_completion_target", .type = kReal, .context = kSighup,
     .category = kWal, .boot_value = "0.9", .min_real = 0, .max_real = 1,
     .description = "Time spent flushing dirty buffers during checkpoint, as fraction "
                    "of checkpoint interval."},
    {.name = "max_wal_size", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "1GB", .unit = kMegabytes, .min_int = 2, .max_int = kIntMax,
     .description = "Sets the WAL size that triggers a checkpoint."},
    {.name = "min_wal_size", .type = kInt, .context = kSighup, .category = kWal,
     .boot_value = "80MB", .unit = kMegabytes, .min_int = 2, .max_int = kIntMax,
     .description = "Sets the minimum size to shrink the WAL to."},

    // LOCK MANAGEMENT
    {.name = "deadlock_timeout", .type = kInt, .context = kUser, .category = kLocks,
     .boot_value = "1s", .unit = kMilliseconds, .min_int = 1, .max_int = kIntMax,
     .description = "Sets the time to wait on a lock before checking for deadlock."},
    {.name = "max_locks_per_transaction", .type = kInt, .context = kPostmaster, .category = kLocks,
     .boot_value = "64", .min_int = 10, .max_int = kIntMax / 2,
     .description = "Sets the maximum number of locks per transaction."},

    // REPORTING AND LOGGING
    {.name = "log_file", .type = kString, .context = kPostmaster, .category = kLogging,
     .boot_value = "",
     .description = "Sets the server log file, relative to the data directory; empty "
                    "means stderr."},
    {.name = "log_checkpoints", .type = kBool, .context = kSighup, .category = kLogging,
     .boot_value = "on", .description = "Logs each checkpoint."},
    {.name = "log_replication_commands", .type = kBool, .context = kSighup, .category = kLogging,
     .boot_value = "off", .description = "Logs each replication command."},
    {.name = "log_min_messages", .type = kEnum, .context = kUser, .category = kLogging,
     .boot_value = "warning", .options = kServerMessageOptions,
     .description = "Sets the message levels that are logged."},
    {.name = "log_statement", .type = kEnum, .context = kUser, .category = kLogging,
     .boot_value = "none", .options = kLogStatementOptions,
     .description = "Sets the type of statements logged."},
    {.name = "application_name", .type = kString, .context = kUser, .category = kLogging,
     .boot_value = "", .flags = kGucReport,
     .description = "Sets the application name to be reported in statistics and logs.",
     .check = CheckApplicationName},
    {.name = "log_autovacuum_min_duration", .type = kInt, .context = kSighup, .category = kLogging,
     .boot_value = "10min", .unit = kMilliseconds, .min_int = -1, .max_int = kIntMax,
     .description = "Sets the minimum execution time above which autovacuum actions will be logged."},

    // AUTOVACUUM
    {.name = "autovacuum", .type = kBool, .context = kSighup, .category = kAutovacuum,
     .boot_value = "on", .description = "Starts the autovacuum subprocess."},
    {.name = "autovacuum_max_workers", .type = kInt, .context = kPostmaster, .category = kAutovacuum,
     .boot_value = "3", .min_int = 1, .max_int = 262143,
     .description = "Sets the maximum number of simultaneously running autovacuum worker processes."},
    {.name = "autovacuum_naptime", .type = kInt, .context = kSighup, .category = kAutovacuum,
     .boot_value = "1min", .unit = kSeconds, .min_int = 1, .max_int = 2147483,
     .description = "Time to sleep between autovacuum runs."},
    {.name = "autovacuum_vacuum_threshold", .type = kInt, .context = kSighup, .category = kAutovacuum,
     .boot_value = "50", .min_int = 0, .max_int = kIntMax,
     .description = "Minimum number of tuple updates or deletes prior to vacuum."},
    {.name = "autovacuum_vacuum_insert_threshold", .type = kInt, .context = kSighup,
     .category = kAutovacuum, .boot_value = "1000", .min_int = -1, .max_int = kIntMax,
     .description = "Minimum number of tuple inserts prior to vacuum, or -1 to disable insert vacuums."},
    {.name = "autovacuum_analyze_threshold", .type = kInt, .context = kSighup, .category = kAutovacuum,
     .boot_value = "50", .min_int = 0, .max_int = kIntMax,
     .description = "Minimum number of tuple inserts, updates, or deletes prior to analyze."},
    {.name = "autovacuum_vacuum_scale_factor", .type = kReal, .context = kSighup, .category = kAutovacuum,
     .boot_value = "0.2", .min_real = 0, .max_real = 100,
     .description = "Number of tuple updates or deletes prior to vacuum as a fraction of reltuples."},
    {.name = "autovacuum_vacuum_insert_scale_factor", .type = kReal, .context = kSighup,
     .category = kAutovacuum, .boot_value = "0.2", .min_real = 0, .max_real = 100,
     .description = "Number of tuple inserts prior to vacuum as a fraction of reltuples."},
    {.name = "autovacuum_analyze_scale_factor", .type = kReal, .context = kSighup, .category = kAutovacuum,
     .boot_value = "0.1", .min_real = 0, .max_real = 100,
     .description = "Number of tuple inserts, updates, or deletes prior to analyze as a fraction of reltuples."},
    {.name = "autovacuum_vacuum_cost_delay", .type = kReal, .context = kSighup, .category = kAutovacuum,
     .boot_value = "2ms", .unit = kMilliseconds, .min_real = -1, .max_real = 100,
     .description = "Vacuum cost delay in milliseconds, for autovacuum."},
    {.name = "autovacuum_vacuum_cost_limit", .type = kInt, .context = kSighup, .category = kAutovacuum,
     .boot_value = "-1", .min_int = -1, .max_int = 10000,
     .description = "Vacuum cost amount available before napping, for autovacuum."},

    // CLIENT CONNECTION DEFAULTS
    {.name = "client_min_messages", .type = kEnum, .context = kUser,
     .category = kClientDefaults, .boot_value = "notice", .options = kClientMessageOptions,
     .description = "Sets the message levels that are sent to the client."},
    {.name = "search_path", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "\"$user\", public", .flags = kListInput | kListQuote,
     .description = "Sets the schema search order for names that are not schema-qualified."},
    {.name = "row_security", .type = kBool, .context = kUser, .category = kClientDefaults,
     .boot_value = "on", .description = "Enable row security."},
    {.name = "default_transaction_isolation", .type = kEnum, .context = kUser,
     .category = kClientDefaults, .boot_value = "read committed",
     .options = kIsolationOptions,
     .description = "Sets the transaction isolation level of each new transaction."},
    {.name = "default_transaction_read_only", .type = kBool, .context = kUser,
     .category = kClientDefaults, .boot_value = "off", .flags = kGucReport,
     .description = "Sets the default read-only status of new transactions."},
    {.name = "statement_timeout", .type = kInt, .context = kUser,
     .category = kClientDefaults, .boot_value = "0", .unit = kMilliseconds, .min_int = 0,
     .max_int = kIntMax,
     .description = "Sets the maximum allowed duration of any statement."},
    {.name = "lock_timeout", .type = kInt, .context = kUser, .category = kClientDefaults,
     .boot_value = "0", .unit = kMilliseconds, .min_int = 0, .max_int = kIntMax,
     .description = "Sets the maximum allowed duration of any wait for a lock."},
    {.name = "idle_in_transaction_session_timeout", .type = kInt, .context = kUser,
     .category = kClientDefaults, .boot_value = "0", .unit = kMilliseconds, .min_int = 0,
     .max_int = kIntMax,
     .description = "Sets the maximum allowed idle time between queries, when in a "
                    "transaction."},
    {.name = "default_toast_compression", .type = kEnum, .context = kUser, .category = kClientDefaults,
     .boot_value = "pglz", .options = kToastCompressionOptions,
     .description = "Sets the default compression method for compressible values."},
    {.name = "bytea_output", .type = kEnum, .context = kUser, .category = kClientDefaults,
     .boot_value = "hex", .options = kByteaOutputOptions,
     .description = "Sets the output format for bytea."},
    {.name = "DateStyle", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "ISO, MDY", .flags = kGucReport | kListInput,
     .description = "Sets the display format for date and time values.",
     .check = CheckDateStyle},
    {.name = "IntervalStyle", .type = kEnum, .context = kUser, .category = kClientDefaults,
     .boot_value = "postgres", .options = kIntervalStyleOptions, .flags = kGucReport,
     .description = "Sets the display format for interval values."},
    {.name = "TimeZone", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "UTC", .flags = kGucReport,
     .description = "Sets the time zone for displaying and interpreting time stamps.",
     .check = CheckTimeZone},
    {.name = "extra_float_digits", .type = kInt, .context = kUser,
     .category = kClientDefaults, .boot_value = "1", .min_int = -15, .max_int = 3,
     .description = "Sets the number of digits displayed for floating-point values."},
    {.name = "client_encoding", .type = kString, .context = kUser,
     .category = kClientDefaults, .boot_value = "UTF8", .flags = kGucReport,
     .description = "Sets the client's character set encoding.",
     .check = CheckClientEncoding},
    {.name = "lc_messages", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "C", .description = "Sets the language in which messages are displayed."},
    {.name = "lc_monetary", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "C", .description = "Sets the locale for formatting monetary amounts."},
    {.name = "lc_numeric", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "C", .description = "Sets the locale for formatting numbers."},
    {.name = "lc_time", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "C", .description = "Sets the locale for formatting date and time values."},
    {.name = "jit", .type = kBool, .context = kUser, .category = kClientDefaults,
     .boot_value = "off", .description = "Allow JIT compilation."},
    // Set by pg_dump's output before its first CREATE.
    {.name = "default_tablespace", .type = kString, .context = kUser, .category = kClientDefaults,
     .boot_value = "",
     .description = "Sets the default tablespace to create tables and indexes in.",
     .check = CheckDefaultTablespace},
    {.name = "default_table_access_method", .type = kString, .context = kUser,
     .category = kClientDefaults, .boot_value = "heap",
     .description = "Sets the default table access method for new tables.",
     .check = CheckTableAccessMethod},
    {.name = "check_function_bodies", .type = kBool, .context = kUser, .category = kClientDefaults,
     .boot_value = "on", .description = "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
    {.name = "xmloption", .type = kEnum, .context = kUser, .category = kClientDefaults,
     .boot_value = "content", .options = kXmlOptionOptions,
     .description = "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."},

    // VERSION AND PLATFORM COMPATIBILITY
    {.name = "standard_conforming_strings", .type = kBool, .context = kUser,
     .category = kCompatibility, .boot_value = "on", .flags = kGucReport,
     .description = "Causes '...' strings to treat backslashes literally.",
     .check = CheckOnlyOn},
    // Accepted for pg_dump (SET synchronize_seqscans TO off): Hearth's
    // sequential scans always start at block 0, as with it off.
    {.name = "synchronize_seqscans", .type = kBool, .context = kUser, .category = kCompatibility,
     .boot_value = "on", .description = "Enable synchronized sequential scans."},

    // PRESET OPTIONS (read-only; the server sets some of them per session)
    {.name = "server_version", .type = kString, .context = kInternal, .category = kPreset,
     .boot_value = "15.0 (Hearth 0.1)", .flags = kGucReport | kNoSample,
     .description = "Shows the server version."},
    {.name = "server_version_num", .type = kInt, .context = kInternal, .category = kPreset,
     .boot_value = "150000", .min_int = 150000, .max_int = 150000, .flags = kNoSample,
     .description = "Shows the server version as an integer."},
    {.name = "server_encoding", .type = kString, .context = kInternal, .category = kPreset,
     .boot_value = "UTF8", .flags = kGucReport | kNoSample,
     .description = "Shows the server (database) character set encoding."},
    {.name = "integer_datetimes", .type = kBool, .context = kInternal, .category = kPreset,
     .boot_value = "on", .flags = kGucReport | kNoSample,
     .description = "Shows whether datetimes are integer based."},
    {.name = "block_size", .type = kInt, .context = kInternal, .category = kPreset,
     .boot_value = "8192", .min_int = 8192, .max_int = 8192, .flags = kNoSample,
     .description = "Shows the size of a disk block."},
    {.name = "wal_segment_size", .type = kInt, .context = kInternal, .category = kPreset,
     .boot_value = "16MB", .unit = kBytes, .min_int = 1024 * 1024, .max_int = 1024 * 1024 * 1024,
     .flags = kNoSample, .description = "Shows the size of write ahead log segments."},
    {.name = "data_directory_mode", .type = kString, .context = kInternal, .category = kPreset,
     .boot_value = "0700", .flags = kNoSample,
     .description = "Shows the mode of the data directory."},
    {.name = "is_superuser", .type = kBool, .context = kInternal, .category = kPreset,
     .boot_value = "on", .flags = kGucReport | kNoSample | kNoResetAll,
     .description = "Shows whether the current user is a superuser."},
    {.name = "session_authorization", .type = kString, .context = kUser,
     .category = kPreset, .boot_value = "", .flags = kGucReport | kNoSample | kNoResetAll | kSessionChecked,
     .description = "Sets the session user name."},
    {.name = "role", .type = kString, .context = kUser, .category = kPreset, .boot_value = "none",
     .flags = kNoSample | kNoResetAll | kSessionChecked, .description = "Sets the current role."},
    {.name = "in_hot_standby", .type = kBool, .context = kInternal, .category = kPreset,
     .boot_value = "off", .flags = kGucReport | kNoSample,
     .description = "Shows whether hot standby is currently active."},
    {.name = "transaction_isolation", .type = kEnum, .context = kUser, .category = kPreset,
     .boot_value = "read committed", .options = kIsolationOptions,
     .flags = kNoSample | kNoResetAll,
     .description = "Sets the current transaction's isolation level."},
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Hash and equality that accept std::string_view, so a lookup needs no
// std::string (SHOW, SET and every transaction start look names up).
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using NameMap = std::unordered_map<std::string, int, NameHash, std::equal_to<>>;

// Lowercased name → index; built once (thread-safe static init).
const NameMap& NameIndex() {
  static const NameMap index = [] {
    NameMap m;
    for (size_t i = 0; i < std::size(kSettings); ++i) m.emplace(Lower(kSettings[i].name), i);
    return m;
  }();
  return index;
}

}  // namespace

std::span<const SettingDef> AllSettings() { return kSettings; }

int FindSettingIndex(std::string_view name) {
  const NameMap& index = NameIndex();
  // Lowercase into a stack buffer: no allocation for any real setting name.
  char buf[96];
  if (name.size() > sizeof(buf)) {
    auto it = index.find(Lower(name));
    return it == index.end() ? -1 : it->second;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    buf[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
  }
  auto it = index.find(std::string_view(buf, name.size()));
  return it == index.end() ? -1 : it->second;
}

const SettingDef* FindSetting(std::string_view name) {
  int i = FindSettingIndex(name);
  return i < 0 ? nullptr : &kSettings[i];
}

size_t SettingIndex(const SettingDef& def) { return static_cast<size_t>(&def - kSettings); }

std::string_view UnitName(Unit unit) {
  switch (unit) {
    case Unit::kNone: return "";
    case Unit::kBytes: return "B";
    case Unit::kKilobytes: return "kB";
    case Unit::kMegabytes: return "MB";
    case Unit::kBlocks: return "8kB";
    case Unit::kMicroseconds: return "us";
    case Unit::kMilliseconds: return "ms";
    case Unit::kSeconds: return "s";
    case Unit::kMinutes: return "min";
  }
  return "";
}

std::string_view CategoryTitle(Category c) {
  switch (c) {
    case Category::kFileLocations: return "FILE LOCATIONS";
    case Category::kConnections: return "CONNECTIONS AND AUTHENTICATION";
    case Category::kResources: return "RESOURCE USAGE";
    case Category::kWal: return "WRITE-AHEAD LOG";
    case Category::kQueryTuning: return "QUERY TUNING";
    case Category::kLocks: return "LOCK MANAGEMENT";
    case Category::kLogging: return "REPORTING AND LOGGING";
    case Category::kAutovacuum: return "AUTOVACUUM";
    case Category::kClientDefaults: return "CLIENT CONNECTION DEFAULTS";
    case Category::kCompatibility: return "VERSION AND PLATFORM COMPATIBILITY";
    case Category::kPreset: return "PRESET OPTIONS";
  }
  return "";
}

std::string_view ContextName(Context c) {
  switch (c) {
    case Context::kInternal: return "internal";
    case Context::kPostmaster: return "postmaster";
    case Context::kSighup: return "sighup";
    case Context::kUser: return "user";
  }
  return "";
}

bool NamesEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace hearth::config
