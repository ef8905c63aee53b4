#include "cli/prediction_shares.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bhpm::cli {

namespace {

/// Appends plain values to a byte string, in the order a ShareReader reads them back.
class ShareWriter {
 public:
  template <typename T>
  void value(const T& value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  /// A double tensor's values, row-major (undefined: none).
  void tensor(const at::Tensor& values) {
    const at::Tensor flat = values.defined() ? values.to(at::kDouble).contiguous() : at::Tensor();
    const std::int64_t count = flat.defined() ? flat.numel() : 0;
    value(count);
    if (count > 0)
      bytes_.append(reinterpret_cast<const char*>(flat.data_ptr<double>()),
                    static_cast<std::size_t>(count) * sizeof(double));
  }
  void text(const std::string& text) {
    value(static_cast<std::int64_t>(text.size()));
    bytes_.append(text);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class ShareReader {
 public:
  explicit ShareReader(const std::string& bytes) : bytes_(bytes) {}
  template <typename T>
  T value() {
    T out;
    std::memcpy(&out, take(sizeof(T)), sizeof(T));
    return out;
  }
  /// The values of ShareWriter::tensor as a double tensor of `sizes`.
  at::Tensor tensor(at::IntArrayRef sizes) {
    const auto count = value<std::int64_t>();
    at::Tensor out = at::empty(sizes, at::kDouble);
    if (count != out.numel()) throw std::runtime_error("predict: a rank's share is malformed");
    std::memcpy(out.data_ptr<double>(), take(static_cast<std::size_t>(count) * sizeof(double)),
                static_cast<std::size_t>(count) * sizeof(double));
    return out;
  }
  std::string text() {
    const auto length = static_cast<std::size_t>(value<std::int64_t>());
    return {take(length), length};
  }

 private:
  const char* take(std::size_t count) {
    if (bytes_.size() - position_ < count)
      throw std::runtime_error("predict: a rank's share is shorter than its contents");
    const char* start = bytes_.data() + position_;
    position_ += count;
    return start;
  }
  const std::string& bytes_;
  std::size_t position_ = 0;
};

/// The members of `share` that differ from rank to rank, as bytes.
std::string write_share(const solve::Prediction& share) {
  const solve::EnsembleSolution& ensemble = share.ensemble;
  ShareWriter out;
  out.value(ensemble.u.size(0));
  out.value(ensemble.steps);
  out.value(ensemble.rejected_steps);
  out.tensor(ensemble.u);
  out.tensor(ensemble.diverged);
  out.tensor(ensemble.rejected);
  out.tensor(ensemble.growth);
  out.tensor(ensemble.added_diffusion);
  for (const std::string& failure : ensemble.failures) out.text(failure);
  out.value(static_cast<std::int64_t>(share.refinement.size()));
  for (const solve::MemberRefinement& member : share.refinement) {
    out.value(member.conditioning_points);
    out.value(member.expected_variance);
    out.value(member.converged);
    out.value(member.out_of_budget);
    out.value(member.out_of_reach);
  }
  return out.bytes();
}

/// The per-member parts of the shares, read back and concatenated in rank order onto
/// `whole` (rank 0's share, whose grid and settings every share has).
void append_shares(solve::Prediction& whole, const std::vector<std::string>& parts) {
  solve::EnsembleSolution& ensemble = whole.ensemble;
  const std::int64_t times = ensemble.u.size(1), points = ensemble.u.size(2);
  std::vector<at::Tensor> u, diverged, rejected, growth, diffusion;
  ensemble.failures.clear();
  whole.refinement.clear();
  for (const std::string& part : parts) {
    ShareReader in(part);
    const auto members = in.value<std::int64_t>();
    ensemble.steps = std::max(ensemble.steps, in.value<std::int64_t>());
    ensemble.rejected_steps = std::max(ensemble.rejected_steps, in.value<std::int64_t>());
    u.push_back(in.tensor({members, times, points}));
    diverged.push_back(in.tensor({members}).to(at::kBool));
    rejected.push_back(in.tensor({members}).to(at::kBool));
    growth.push_back(in.tensor({members}));
    diffusion.push_back(in.tensor({members}));
    for (std::int64_t s = 0; s < members; ++s) ensemble.failures.push_back(in.text());
    const auto records = in.value<std::int64_t>();
    for (std::int64_t s = 0; s < records; ++s) {
      solve::MemberRefinement member;
      member.conditioning_points = in.value<std::int64_t>();
      member.expected_variance = in.value<double>();
      member.converged = in.value<bool>();
      member.out_of_budget = in.value<bool>();
      member.out_of_reach = in.value<bool>();
      whole.refinement.push_back(member);
    }
  }
  ensemble.u = at::cat(u);
  ensemble.diverged = at::cat(diverged);
  ensemble.rejected = at::cat(rejected);
  ensemble.growth = at::cat(growth);
  ensemble.added_diffusion = at::cat(diffusion);
}

}  // namespace

MemberShare member_share(std::int64_t samples, int rank, int ranks) {
  if (samples < ranks)
    throw std::invalid_argument("predict: " + std::to_string(samples) + " samples over " +
                                std::to_string(ranks) +
                                " MPI ranks: give every rank one at least (predict.samples >= "
                                "the ranks)");
  const std::int64_t base = samples / ranks, extra = samples % ranks;
  return {rank * base + std::min<std::int64_t>(rank, extra), base + (rank < extra ? 1 : 0)};
}

int rank_of_member(std::int64_t member, std::int64_t samples, int ranks) {
  int rank = 0;
  while (rank + 1 < ranks && member_share(samples, rank + 1, ranks).first <= member) ++rank;
  return rank;
}

void share_members(const MpiJob& job, const config::RunConfig& config,
                   solve::PredictorOptions& predictor) {
  if (!job.several()) return;
  if (config.predict.operator_source != "gp")
    throw std::invalid_argument("predict: --operator " + config.predict.operator_source +
                                " is solved by one process; start it without mpirun");
  const MemberShare share = member_share(predictor.samples, job.rank(), job.size());
  predictor.first_member = share.first;
  predictor.member_count = share.count;
  if (job.rank() == 0)
    std::printf("predict: %lld samples over %d MPI ranks\n",
                static_cast<long long>(predictor.samples), job.size());
}

solve::Prediction gather_prediction(const MpiJob& job, solve::Prediction share) {
  if (!job.several()) return share;
  const std::vector<std::string> parts = job.gather_on_first_rank(write_share(share));
  if (job.rank() == 0) append_shares(share, parts);
  return share;
}

}  // namespace bhpm::cli
