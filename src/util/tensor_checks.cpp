#include "util/tensor_checks.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace bhpm::util {

std::string describe_tensor(const at::Tensor& tensor) {
  if (!tensor.defined()) return "an undefined tensor";
  std::string text = "[";
  for (std::int64_t d = 0; d < tensor.dim(); ++d)
    text += (d ? ", " : "") + std::to_string(tensor.size(d));
  return text + "] " + std::string(c10::toString(tensor.scalar_type()));
}

namespace {

std::string extent(std::int64_t size, const char* symbol) {
  return size < 0 ? symbol : std::to_string(size);
}

void fail(const at::Tensor& tensor, const std::string& where, const std::string& name,
          const std::string& shape) {
  throw std::invalid_argument(where + ": " + name + " must be a double tensor of shape " + shape +
                              " with at least one row (got " + describe_tensor(tensor) + ")");
}

}  // namespace

void require_matrix(const at::Tensor& tensor, std::int64_t rows, std::int64_t columns,
                    const std::string& where, const std::string& name) {
  const bool ok = tensor.defined() && tensor.scalar_type() == at::kDouble && tensor.dim() == 2 &&
                  tensor.size(0) >= 1 && (rows < 0 || tensor.size(0) == rows) &&
                  (columns < 0 || tensor.size(1) == columns);
  if (!ok) fail(tensor, where, name, "[" + extent(rows, "N") + ", " + extent(columns, "D") + "]");
}

void require_batched_matrices(const at::Tensor& tensor, std::int64_t batch, std::int64_t rows,
                              std::int64_t columns, const std::string& where,
                              const std::string& name) {
  const bool ok = tensor.defined() && tensor.scalar_type() == at::kDouble && tensor.dim() == 3 &&
                  tensor.size(1) >= 1 && (batch < 0 || tensor.size(0) == batch) &&
                  (rows < 0 || tensor.size(1) == rows) &&
                  (columns < 0 || tensor.size(2) == columns);
  if (!ok)
    fail(tensor, where, name,
         "[" + extent(batch, "B") + ", " + extent(rows, "N") + ", " + extent(columns, "D") + "]");
}

void require_vector(const at::Tensor& tensor, std::int64_t length, const std::string& where,
                    const std::string& name) {
  const bool ok = tensor.defined() && tensor.scalar_type() == at::kDouble && tensor.dim() == 1 &&
                  tensor.size(0) >= 1 && (length < 0 || tensor.size(0) == length);
  if (!ok) fail(tensor, where, name, "[" + extent(length, "N") + "]");
}

}  // namespace bhpm::util
