#include "model/training_history.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "io/checkpoint.h"
#include "util/comma_list.h"
#include "util/number_format.h"

namespace bhpm::model {

namespace {

std::vector<std::string> row_columns(const ProgressTerms& terms) {
  std::vector<std::string> columns = {"iteration", "learning_rate", "objective"};
  for (const auto& [name, value] : terms) columns.push_back(name);
  return columns;
}

}  // namespace

void TrainingHistory::append(std::int64_t iteration, double learning_rate, double objective,
                             const ProgressTerms& terms) {
  std::vector<std::string> columns = row_columns(terms);
  if (columns_.empty()) columns_ = columns;
  if (columns != columns_)
    throw std::invalid_argument("training history: iteration " + std::to_string(iteration) +
                                " reports the terms " + util::join_with_commas(columns) +
                                ", earlier ones " + util::join_with_commas(columns_));
  std::vector<double> row = {static_cast<double>(iteration), learning_rate, objective};
  for (const auto& [name, value] : terms) row.push_back(value);
  rows_.push_back(std::move(row));
}

void TrainingHistory::truncate_after(std::int64_t iteration) {
  while (!rows_.empty() && rows_.back().front() > static_cast<double>(iteration)) rows_.pop_back();
}

std::string TrainingHistory::csv() const {
  std::string text = util::join_with_commas(columns_) + "\n";
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c)
      text += (c ? "," : "") + util::format_significant(row[c], 10);
    text += "\n";
  }
  return text;
}

void TrainingHistory::store(io::Checkpoint& checkpoint) const {
  checkpoint.strings["history_columns"] = util::join_with_commas(columns_);
  at::Tensor table = at::zeros(
      {static_cast<std::int64_t>(rows_.size()), static_cast<std::int64_t>(columns_.size())},
      at::kDouble);
  for (std::size_t r = 0; r < rows_.size(); ++r)
    for (std::size_t c = 0; c < columns_.size(); ++c)
      table[static_cast<std::int64_t>(r)][static_cast<std::int64_t>(c)] = rows_[r][c];
  checkpoint.tensors["history"] = table;
}

TrainingHistory TrainingHistory::restore(const io::Checkpoint& checkpoint,
                                         const std::string& source) {
  TrainingHistory history;
  if (!checkpoint.tensors.count("history")) return history;
  history.columns_ = util::split_at_commas(checkpoint.string("history_columns", source));
  const at::Tensor table = checkpoint.tensor("history", source).to(at::kDouble).contiguous();
  if (table.dim() != 2 || table.size(1) != static_cast<std::int64_t>(history.columns_.size()))
    throw io::CheckpointError(source + ": history has " + std::to_string(table.size(-1)) +
                              " columns, history_columns names " +
                              std::to_string(history.columns_.size()));
  const double* values = table.data_ptr<double>();
  for (std::int64_t r = 0; r < table.size(0); ++r)
    history.rows_.emplace_back(values + r * table.size(1), values + (r + 1) * table.size(1));
  return history;
}

}  // namespace bhpm::model
