// server/executor/nodes/project_set_node.cpp
//
// Principal entry point: ProjectSetNode::Next (lockstep SRF calls per input row).
#include "executor/nodes/project_set_node.h"

#include "executor/nodes/basic_nodes.h"
#include "executor/nodes/function_scan_node.h"

namespace hearth::executor {

ProjectSetNode::ProjectSetNode(ExecNodePtr child, std::vector<SrfSpec> srfs, int agg_base)
    : child_(std::move(child)), srfs_(std::move(srfs)), agg_base_(agg_base) {
  columns_ = child_->columns();
  for (const SrfSpec& s : srfs_) columns_.push_back(OutputColumn{s.srf->sig.name, s.type, types::kNoTypmod});
}

ExecNodePtr ProjectSetNode::Clone() const {
  std::vector<SrfSpec> srfs;
  for (const SrfSpec& s : srfs_) srfs.push_back(SrfSpec{s.srf, ClonePlanExprs(s.args), s.type, s.level});
  return std::make_unique<ProjectSetNode>(CloneNode(child_), std::move(srfs), agg_base_);
}

void ProjectSetNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  active_ = false;
  calls_.clear();
  calls_.resize(srfs_.size());
  child_->Open(ctx);
}

bool ProjectSetNode::Next(Row& row) {
  const size_t width = columns_.size() - srfs_.size();
  for (;;) {
    if (!active_) {
      if (!child_->Next(input_)) return false;
      SetEvalRow(eval_, input_, agg_base_);
      for (size_t i = 0; i < srfs_.size(); ++i) calls_[i] = StartSrfCall(*srfs_[i].srf, srfs_[i].args, eval_, &argbuf_);
      active_ = true;
    }
    ctx_->CheckInterrupts();
    row.resize(columns_.size());
    bool any = false;
    for (size_t i = 0; i < srfs_.size(); ++i) {
      types::Value& out = row[width + i];
      if (calls_[i] && calls_[i]->Next(&out)) {
        any = true;
        continue;
      }
      calls_[i].reset();
      out = types::Value::Null(srfs_[i].type);
    }
    if (!any) {
      active_ = false;
      continue;
    }
    for (size_t i = 0; i < width; ++i) row[i] = input_[i];
    return true;
  }
}

void ProjectSetNode::Close() {
  calls_.clear();
  active_ = false;
  child_->Close();
}

}  // namespace hearth::executor
