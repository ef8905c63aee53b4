// FolderLock: an exclusive lock refuses a second holder and names the first; shared locks
// coexist; a process takes again what it holds; the lock goes with the object. Another
// process's flock(2) is played by a second open file description of the lock file, which
// flock treats as a separate holder even within one process.

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "io/folder_lock.h"

using bhpm::io::FolderLock;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

constexpr auto kExclusive = FolderLock::Mode::exclusive;
constexpr auto kShared = FolderLock::Mode::shared;

fs::path fresh_folder(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

/// Whether a holder other than this FolderLock could take the lock in `operation` now.
bool other_can_lock(const fs::path& folder, int operation) {
  const int descriptor = ::open((folder / ".bhpm-lock").c_str(), O_RDWR);
  if (descriptor < 0) return true;
  const bool locked = ::flock(descriptor, operation | LOCK_NB) == 0;
  ::close(descriptor);
  return locked;
}

std::string refusal(const fs::path& folder, FolderLock::Mode mode) {
  try {
    const FolderLock lock(folder.string(), mode, "second");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST(FolderLock, exclusive_refuses_another_holder_and_names_it_until_released) {
  const fs::path folder = fresh_folder("bhpm-lock-exclusive");
  {
    const FolderLock lock(folder.string(), kExclusive, "bhpm run a.toml -o RUN");
    EXPECT_FALSE(other_can_lock(folder, LOCK_SH));
    const FolderLock again(folder.string(), kExclusive, "bhpm train");  // this process: taken
    std::ifstream text(folder / ".bhpm-lock");
    std::string line;
    std::getline(text, line);
    EXPECT_EQ(line, "pid " + std::to_string(::getpid()) + ": bhpm run a.toml -o RUN");
  }
  EXPECT_TRUE(other_can_lock(folder, LOCK_EX));         // released with the last holder
  EXPECT_EQ(fs::file_size(folder / ".bhpm-lock"), 0u);  // and its line with it
  const int other = ::open((folder / ".bhpm-lock").c_str(), O_RDWR);
  ASSERT_EQ(::flock(other, LOCK_EX | LOCK_NB), 0);
  const std::string line = "pid " + std::to_string(::getpid()) + ": bhpm run b.toml -o RUN\n";
  ASSERT_EQ(::write(other, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  const std::string message = refusal(folder, kShared);
  EXPECT_THAT(message, HasSubstr(folder.string() + " is in use by another bhpm process"));
  EXPECT_THAT(message, HasSubstr("(pid " + std::to_string(::getpid()) + ": bhpm run b.toml"));
  ::close(other);
  EXPECT_EQ(refusal(folder, kExclusive), "");
  fs::remove_all(folder);
}

TEST(FolderLock, shared_holders_coexist_and_keep_a_writer_out) {
  const fs::path folder = fresh_folder("bhpm-lock-shared");
  const int other = ::open((folder / ".bhpm-lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_EQ(::flock(other, LOCK_SH | LOCK_NB), 0);  // another predict
  {
    const FolderLock lock(folder.string(), kShared, "bhpm predict");
    EXPECT_TRUE(other_can_lock(folder, LOCK_SH));
    EXPECT_FALSE(other_can_lock(folder, LOCK_EX));
  }
  EXPECT_THAT(refusal(folder, kExclusive), HasSubstr("is in use by another bhpm process"));
  ::close(other);
  fs::remove_all(folder);
}

TEST(FolderLock, absent_folder_is_not_made_and_a_linked_lock_file_is_refused) {
  const fs::path folder = fresh_folder("bhpm-lock-absent");
  fs::remove_all(folder);
  { const FolderLock lock(folder.string(), kExclusive, "bhpm calibrate"); }
  EXPECT_FALSE(fs::exists(folder));
  fs::create_directories(folder);
  fs::create_symlink(folder / "elsewhere", folder / ".bhpm-lock");
  EXPECT_THAT(refusal(folder, kExclusive), HasSubstr("cannot open its lock file"));
  fs::remove_all(folder);
}
