#pragma once
/// Argument checks on tensors shared by every numerical layer: inputs are double matrices
/// [N, D], targets double vectors [N]. Each throws std::invalid_argument with a message
/// "<where>: <name> must be ... (got ...)".

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace bhpm::util {

/// "[4, 3] Double" style description of a tensor for error messages.
std::string describe_tensor(const at::Tensor& tensor);

/// Requires a defined double tensor of shape [rows, columns] with at least one row;
/// rows < 0 accepts any number of rows, columns < 0 any number of columns.
void require_matrix(const at::Tensor& tensor, std::int64_t rows, std::int64_t columns,
                    const std::string& where, const std::string& name);

/// Requires a defined double tensor of shape [batch, rows, columns] with at least one row
/// (a batch of matrices); a negative extent accepts any size.
void require_batched_matrices(const at::Tensor& tensor, std::int64_t batch, std::int64_t rows,
                              std::int64_t columns, const std::string& where,
                              const std::string& name);

/// Requires a defined double tensor of shape [length], length >= 1 (any length when
/// length < 0).
void require_vector(const at::Tensor& tensor, std::int64_t length, const std::string& where,
                    const std::string& name);

}  // namespace bhpm::util
