// Checkpoints round-trip tensors, integers and strings, are written atomically and name
// the file and the key when something is missing, LibTorch's reason for an unreadable
// file without its backtrace, and a flipped bit in a stored tensor (its CRC-32).

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/checkpoint.h"

using bhpm::io::Checkpoint;
using bhpm::io::CheckpointError;
using testing::HasSubstr;

TEST(Checkpoint, round_trips_every_kind_of_entry) {
  const std::string path = testing::TempDir() + "round.ckpt";
  Checkpoint saved;
  saved.tensors["param/weight"] = at::randn({3, 4}, at::kDouble);
  saved.tensors["bytes"] = at::arange(10, at::kByte);
  saved.integers["iteration"] = 1234;
  saved.strings["config"] = "seed = 1\n[leaves]\nwidth = 64\n";
  bhpm::io::save_checkpoint(path, saved);
  const Checkpoint loaded = bhpm::io::load_checkpoint(path);
  EXPECT_TRUE(at::equal(loaded.tensor("param/weight", path), saved.tensors["param/weight"]));
  EXPECT_TRUE(at::equal(loaded.tensor("bytes", path), saved.tensors["bytes"]));
  EXPECT_EQ(loaded.integer("iteration", path), 1234);
  EXPECT_EQ(loaded.string("config", path), saved.strings["config"]);
  for (const auto& entry : std::filesystem::directory_iterator(testing::TempDir()))
    EXPECT_EQ(entry.path().string().find("round.ckpt.tmp-"), std::string::npos);
}

TEST(Checkpoint, missing_keys_and_files_are_named) {
  const std::string path = testing::TempDir() + "empty.ckpt";
  bhpm::io::save_checkpoint(path, {});
  const Checkpoint loaded = bhpm::io::load_checkpoint(path);
  try {
    loaded.integer("iteration", path);
    FAIL();
  } catch (const CheckpointError& error) {
    EXPECT_THAT(error.what(), HasSubstr("empty.ckpt: checkpoint has no integer 'iteration'"));
  }
  EXPECT_THROW(bhpm::io::load_checkpoint(testing::TempDir() + "absent.ckpt"), CheckpointError);
  const std::string garbage = testing::TempDir() + "garbage.ckpt";
  std::ofstream(garbage) << "not a checkpoint";
  try {
    bhpm::io::load_checkpoint(garbage);
    FAIL();
  } catch (const CheckpointError& error) {  // LibTorch's reason, without its C++ backtrace
    EXPECT_THAT(error.what(), HasSubstr("garbage.ckpt: not a readable checkpoint"));
    EXPECT_THAT(error.what(), testing::Not(HasSubstr("frame #")));
  }
}

TEST(Checkpoint, a_flipped_bit_in_a_tensor_is_refused_by_its_crc) {
  const std::string path = testing::TempDir() + "flipped.ckpt";
  Checkpoint saved;
  saved.tensors["weights"] = at::full({64}, 0.25, at::kDouble);
  bhpm::io::save_checkpoint(path, saved);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const double quarter = 0.25;  // the tensor's bytes, stored as they are in the archive
  const std::string value(reinterpret_cast<const char*>(&quarter), sizeof quarter);
  const std::size_t at = bytes.find(value + value + value + value);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x10);  // 0.25 becomes another number
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  try {
    bhpm::io::load_checkpoint(path);
    FAIL() << "a corrupted tensor was read";
  } catch (const CheckpointError& error) {
    EXPECT_THAT(error.what(), HasSubstr("flipped.ckpt: not a readable checkpoint"));
    EXPECT_THAT(error.what(), HasSubstr("fails its CRC-32 check"));
  }
}
