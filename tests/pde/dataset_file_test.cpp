// Dataset files: an exact write/read round trip, atomic output (no temporary or partial
// file after success or failure) and errors that name the file.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/hdf5_file.h"
#include "pde/dataset_file.h"
#include "pde/equation.h"
#include "pde/experiment_set.h"
#include "pde/periodic_grid.h"
#include "support/error_message.h"

namespace fs = std::filesystem;
using testing::HasSubstr;

namespace {

/// A fresh folder under the system's temporary folder, removed with everything in it.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "bhpm-dataset-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TemporaryFolder() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.push_back(entry.path().filename().string());
    return names;
  }

 private:
  fs::path path_;
};

bhpm::pde::ExperimentSet small_set(const std::string& name) {
  const bhpm::pde::PeriodicGrid grid(-8.0, 8.0, 32);
  const bhpm::pde::Equation equation = bhpm::pde::make_equation({});  // burgers
  bhpm::pde::ExperimentSetOptions options;
  options.name = name;
  options.experiments = 2;
  options.seed = 3;
  options.solve.t_end = 1.0;
  options.solve.output_dt = 0.1;
  options.measurements.n_st = 20;
  options.measurements.noise = 0.1;
  return bhpm::pde::simulate_experiment_set(grid, equation, options);
}

const bhpm::pde::DatasetMetadata kMetadata{"u_t = 0.1 u_xx + (-u*u_x)", "[solver]\nmodes = 32\n",
                                           "bhpm test", 1, ""};

void expect_same(const at::Tensor& actual, const at::Tensor& expected, const char* what) {
  EXPECT_EQ(actual.scalar_type(), expected.scalar_type()) << what;
  EXPECT_EQ(actual.sizes(), expected.sizes()) << what;
  if (actual.scalar_type() == expected.scalar_type() && actual.sizes() == expected.sizes()) {
    EXPECT_TRUE(at::equal(actual, expected)) << what << " differs";
  }
}

using bhpm::testing_support::error_message;

}  // namespace

TEST(DatasetFile, round_trip_is_exact) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "data.h5").string();
  std::vector<bhpm::pde::ExperimentSet> sets = {small_set("train"), small_set("test")};
  sets[1].conditions = "left: u = 0; right: u_x = 0";  // read back; "" stays periodic
  ASSERT_EQ(sets[0].u.sizes(), (at::IntArrayRef{2, 11, 32}));
  ASSERT_EQ(sets[0].sample_u.sizes(), (at::IntArrayRef{2, 20}));
  bhpm::pde::write_dataset(path, sets, kMetadata);
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"data.h5"});  // no *.tmp-* left

  for (const auto& written : sets) {
    const bhpm::pde::ExperimentSet read = bhpm::pde::read_experiment_set(path, written.name);
    EXPECT_EQ(read.name, written.name);
    expect_same(read.x, written.x, "x");
    expect_same(read.t, written.t, "t");
    expect_same(read.u, written.u, "u");
    expect_same(read.sample_index, written.sample_index, "sample_index");
    expect_same(read.sample_x, written.sample_x, "sample_x");
    expect_same(read.sample_t, written.sample_t, "sample_t");
    expect_same(read.sample_u, written.sample_u, "sample_u");
    expect_same(read.sample_u_clean, written.sample_u_clean, "sample_u_clean");
    EXPECT_EQ(read.noise, written.noise);
    EXPECT_EQ(read.dt, written.dt);
    EXPECT_EQ(read.conditions, written.conditions);
  }
  // The noise really was added (otherwise u == u_clean would hide a swapped field).
  EXPECT_FALSE(at::equal(sets[0].sample_u, sets[0].sample_u_clean));

  const bhpm::pde::DatasetMetadata metadata = bhpm::pde::read_dataset_metadata(path);
  EXPECT_EQ(metadata.equation, kMetadata.equation);
  EXPECT_EQ(metadata.config, kMetadata.config);
  EXPECT_EQ(metadata.created_by, kMetadata.created_by);
}

TEST(DatasetFile, writing_replaces_an_existing_file) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "data.h5").string();
  { std::ofstream(path) << "old contents"; }
  bhpm::pde::write_dataset(path, {small_set("train")}, kMetadata);
  EXPECT_EQ(bhpm::pde::read_dataset_metadata(path).created_by, "bhpm test");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"data.h5"});
}

TEST(DatasetFile, missing_group_is_an_error_naming_file_and_group) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "data.h5").string();
  bhpm::pde::write_dataset(path, {small_set("train")}, kMetadata);
  EXPECT_THAT(
      error_message<std::exception>([&] { bhpm::pde::read_experiment_set(path, "validation"); }),
      AllOf(HasSubstr(path), HasSubstr("validation")));
}

TEST(DatasetFile, a_file_that_is_not_hdf5_is_an_error_naming_it) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "text.h5").string();
  { std::ofstream(path) << "this is not an HDF5 file\n"; }
  EXPECT_THAT(error_message<std::exception>([&] { bhpm::pde::read_dataset_metadata(path); }),
              HasSubstr(path));
  EXPECT_THAT(error_message<std::exception>([&] { bhpm::pde::read_experiment_set(path, "train"); }),
              HasSubstr(path));
  const std::string missing = (folder.path() / "missing.h5").string();
  EXPECT_THAT(
      error_message<std::exception>([&] { bhpm::pde::read_experiment_set(missing, "train"); }),
      HasSubstr(missing));
}

TEST(DatasetFile, writing_into_a_missing_folder_throws_and_creates_nothing) {
  TemporaryFolder folder;
  const fs::path missing = folder.path() / "no" / "such";
  const std::string path = (missing / "data.h5").string();
  EXPECT_THAT(error_message<std::exception>(
                  [&] { bhpm::pde::write_dataset(path, {small_set("train")}, kMetadata); }),
              HasSubstr(path));
  EXPECT_FALSE(fs::exists(folder.path() / "no"));
  EXPECT_TRUE(folder.entries().empty());
}

TEST(DatasetFile, failure_while_writing_leaves_no_file) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "data.h5").string();
  const bhpm::pde::ExperimentSet set = small_set("train");
  // The second group "train" cannot be created after the first was written.
  EXPECT_THAT(error_message<std::exception>([&] {
                bhpm::pde::write_dataset(path, {set, set}, kMetadata);
              }),
              HasSubstr("train"));
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(folder.entries().empty()) << "left behind: " << folder.entries().front();
}

TEST(DatasetFile, failure_while_writing_keeps_the_previous_file) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "data.h5").string();
  const bhpm::pde::ExperimentSet set = small_set("train");
  bhpm::pde::write_dataset(path, {set}, kMetadata);
  bhpm::pde::DatasetMetadata other = kMetadata;
  other.created_by = "second run";
  EXPECT_ANY_THROW(bhpm::pde::write_dataset(path, {set, set}, other));
  EXPECT_EQ(bhpm::pde::read_dataset_metadata(path).created_by, "bhpm test");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"data.h5"});
}

TEST(DatasetFile, newer_format_versions_are_refused) {
  const std::string path = testing::TempDir() + "future.h5";
  {
    const auto file = bhpm::io::Hdf5Location::create_file(path);
    file.set_attribute("format", std::string("bhpm-dataset"));
    file.set_attribute("format_version", static_cast<std::int64_t>(3));
  }
  try {
    bhpm::pde::read_dataset_metadata(path);
    FAIL() << "expected an error";
  } catch (const std::exception& error) {
    EXPECT_THAT(error.what(), testing::HasSubstr("format_version 3"));
  }
}
