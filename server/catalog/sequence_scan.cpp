// catalog/sequence_scan.cpp
//
// Principal entry point: OpenSequenceScan.
#include "catalog/sequence_scan.h"

#include "catalog/sequence.h"

namespace hearth::catalog {

namespace {

class SequenceScan final : public executor::TableScan {
 public:
  explicit SequenceScan(RelationRef seq) : seq_(std::move(seq)) {}

  bool Next(executor::Row& row, executor::RowId* rid) override {
    if (done_) return false;
    done_ = true;
    const SequenceState st = ReadSequenceState(*seq_);
    row.resize(3);
    row[0] = types::Value::Int(types::kInt8Oid, st.last_value);
    row[1] = types::Value::Int(types::kInt8Oid, st.log_cnt);
    row[2] = types::Value::Bool(st.is_called);
    if (rid != nullptr) *rid = 0;
    return true;
  }

 private:
  RelationRef seq_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<executor::TableScan> OpenSequenceScan(RelationRef seq) {
  return std::make_unique<SequenceScan>(std::move(seq));
}

}  // namespace hearth::catalog
