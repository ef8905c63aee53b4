#include "io/checkpoint.h"

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "io/atomic_file.h"
#include "io/zip_archive.h"
#include "util/error_message.h"

namespace bhpm::io {

namespace {
constexpr const char* kTensor = "tensor/";
constexpr const char* kInteger = "integer/";
constexpr const char* kString = "string/";

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

template <typename Map>
const typename Map::mapped_type& find(const Map& map, const std::string& key,
                                      const std::string& source, const char* kind) {
  const auto found = map.find(key);
  if (found == map.end())
    throw CheckpointError(source + ": checkpoint has no " + kind + " '" + key + "'");
  return found->second;
}
}  // namespace

const at::Tensor& Checkpoint::tensor(const std::string& key, const std::string& source) const {
  return find(tensors, key, source, "tensor");
}

std::int64_t Checkpoint::integer(const std::string& key, const std::string& source) const {
  return find(integers, key, source, "integer");
}

const std::string& Checkpoint::string(const std::string& key, const std::string& source) const {
  return find(strings, key, source, "string");
}

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint) {
  torch::serialize::OutputArchive archive;
  for (const auto& [key, value] : checkpoint.tensors)
    archive.write(kTensor + key, c10::IValue(value.detach()));
  for (const auto& [key, value] : checkpoint.integers) archive.write(kInteger + key, value);
  for (const auto& [key, value] : checkpoint.strings) archive.write(kString + key, value);
  AtomicFile output(path);
  try {
    archive.save_to(output.temporary_path());
  } catch (const std::exception& error) {
    throw CheckpointError(path + ": cannot write checkpoint: " + util::error_message(error));
  }
  output.commit();
}

Checkpoint load_checkpoint(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw CheckpointError(path + ": checkpoint file does not exist");
  std::vector<unsigned char> contents;
  try {  // LibTorch's reader checks no CRC: a flipped bit would load as a wrong value
    const ZipArchive zip(path, "checkpoint");
    zip.verify();
    contents = zip.contents();
  } catch (const std::invalid_argument& error) {
    throw CheckpointError(error.what());
  }
  torch::serialize::InputArchive archive;
  try {  // the bytes verified, not a second read of the file
    archive.load_from(reinterpret_cast<const char*>(contents.data()), contents.size());
  } catch (const std::exception& error) {
    throw CheckpointError(path + ": not a readable checkpoint: " + util::error_message(error));
  }
  Checkpoint checkpoint;
  for (const std::string& key : archive.keys()) {
    c10::IValue value;
    archive.read(key, value);
    if (starts_with(key, kTensor))
      checkpoint.tensors[key.substr(std::strlen(kTensor))] = value.toTensor();
    else if (starts_with(key, kInteger))
      checkpoint.integers[key.substr(std::strlen(kInteger))] = value.toInt();
    else if (starts_with(key, kString))
      checkpoint.strings[key.substr(std::strlen(kString))] = value.toStringRef();
  }
  return checkpoint;
}

}  // namespace bhpm::io
