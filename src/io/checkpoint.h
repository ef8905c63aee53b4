#pragma once
/// Checkpoints: named tensors, integers and strings in one file (LibTorch's archive
/// format), written atomically (temporary file, then rename), so a crash mid-write keeps
/// the previous checkpoint intact. Strings carry the configuration that made the file.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace bhpm::io {

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Checkpoint {
  std::map<std::string, at::Tensor> tensors;
  std::map<std::string, std::int64_t> integers;
  std::map<std::string, std::string> strings;

  /// The named entry; throws CheckpointError naming `source` and the key when absent.
  const at::Tensor& tensor(const std::string& key, const std::string& source) const;
  std::int64_t integer(const std::string& key, const std::string& source) const;
  const std::string& string(const std::string& key, const std::string& source) const;
};

/// Writes `checkpoint` to `path` atomically.
void save_checkpoint(const std::string& path, const Checkpoint& checkpoint);

/// Reads a checkpoint; throws CheckpointError naming the file if it is missing or unreadable.
Checkpoint load_checkpoint(const std::string& path);

}  // namespace bhpm::io
