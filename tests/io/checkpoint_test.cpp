// Checkpoints round-trip tensors, integers and strings, are written atomically and name
// the file and the key when something is missing, and LibTorch's reason for an unreadable
// file without its backtrace.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
    EXPECT_THAT(error.what(), HasSubstr("garbage.ckpt: not a readable checkpoint: "));
    EXPECT_THAT(error.what(), testing::Not(HasSubstr("frame #")));
  }
}
