// Hdf5Location: arrays with shapes, attributes, existence checks and error messages that
// name "file:/path".

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/hdf5_file.h"

namespace fs = std::filesystem;
using bhpm::io::Hdf5Error;
using bhpm::io::Hdf5Location;
using testing::HasSubstr;

namespace {

class Hdf5FileTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "bhpm-hdf5-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
    path_ = (folder_ / "arrays.h5").string();
  }
  void TearDown() override {
    if (!folder_.empty()) fs::remove_all(folder_);
  }

  template <typename Action>
  static std::string hdf5_error(Action action) {
    try {
      action();
    } catch (const Hdf5Error& error) {
      return error.what();
    }
    ADD_FAILURE() << "expected an Hdf5Error";
    return "";
  }

  fs::path folder_;
  std::string path_;
};

}  // namespace

TEST_F(Hdf5FileTest, arrays_round_trip_with_shapes) {
  const std::vector<double> doubles = {1.5, -2.25, 3e-300, 4e300, 0.1, -0.0};
  const std::vector<std::int64_t> integers = {0, -1, INT64_MAX, INT64_MIN};
  {
    const Hdf5Location file = Hdf5Location::create_file(path_);
    file.write_array("matrix", doubles.data(), {2, 3}, {"row,column", "m", "a matrix"});
    const Hdf5Location group = file.create_group("group");
    group.write_array("index", integers.data(), {4}, {});
    const Hdf5Location nested = group.create_group("nested");
    nested.write_array("cube", doubles.data(), {1, 2, 3}, {});
  }
  const Hdf5Location file = Hdf5Location::open_file(path_);
  const auto matrix = file.read_doubles("matrix");
  EXPECT_EQ(matrix.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(matrix.values, doubles);
  const auto index = file.open_group("group").read_integers("index");
  EXPECT_EQ(index.shape, (std::vector<std::size_t>{4}));
  EXPECT_EQ(index.values, integers);
  const auto cube = file.open_group("group").open_group("nested").read_doubles("cube");
  EXPECT_EQ(cube.shape, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(cube.values, doubles);
  // Integer arrays can be read as doubles (HDF5 converts on reading).
  const auto index_as_doubles = file.open_group("group").read_doubles("index");
  EXPECT_EQ(index_as_doubles.values[1], -1.0);
}

TEST_F(Hdf5FileTest, attributes_round_trip) {
  {
    const Hdf5Location file = Hdf5Location::create_file(path_);
    file.set_attribute("format", std::string("bhpm-dataset"));
    file.set_attribute("config", std::string("[solver]\nmodes = 32\n# unicode: \xc3\xa9\n"));
    file.set_attribute("empty", std::string());
    file.set_attribute("noise", 0.125);
    file.set_attribute("version", std::int64_t{7});
    const Hdf5Location group = file.create_group("train");
    group.set_attribute("dt", 2.5e-3);
  }
  const Hdf5Location file = Hdf5Location::open_file(path_);
  EXPECT_EQ(file.string_attribute("format"), "bhpm-dataset");
  EXPECT_EQ(file.string_attribute("config"), "[solver]\nmodes = 32\n# unicode: \xc3\xa9\n");
  EXPECT_EQ(file.string_attribute("empty"), "");
  EXPECT_EQ(file.number_attribute("noise"), 0.125);
  EXPECT_EQ(file.number_attribute("version"), 7.0);
  EXPECT_EQ(file.open_group("train").number_attribute("dt"), 2.5e-3);
  EXPECT_TRUE(file.has_attribute("format"));
  EXPECT_FALSE(file.has_attribute("missing"));
  EXPECT_FALSE(file.open_group("train").has_attribute("format"));  // attributes are per object
}

TEST_F(Hdf5FileTest, has_reports_datasets_and_groups) {
  {
    const Hdf5Location file = Hdf5Location::create_file(path_);
    const double value = 1.0;
    file.create_group("train").write_array("x", &value, {1}, {});
  }
  const Hdf5Location file = Hdf5Location::open_file(path_);
  EXPECT_TRUE(file.has("train"));
  EXPECT_FALSE(file.has("test"));
  const Hdf5Location train = file.open_group("train");
  EXPECT_TRUE(train.has("x"));
  EXPECT_FALSE(train.has("u"));
  EXPECT_FALSE(file.has("x"));
}

TEST_F(Hdf5FileTest, a_dataset_is_not_a_group) {
  {
    const Hdf5Location file = Hdf5Location::create_file(path_);
    const double values[2] = {1.0, 2.0};
    file.write_array("x", values, {2}, {"x", "length", "grid points"});
  }
  const Hdf5Location file = Hdf5Location::open_file(path_);
  EXPECT_THAT(hdf5_error([&] { file.open_group("x"); }), HasSubstr(path_ + ":/x"));
}

TEST_F(Hdf5FileTest, missing_objects_are_errors_naming_file_and_path) {
  {
    const Hdf5Location file = Hdf5Location::create_file(path_);
    file.create_group("train").set_attribute("label", std::string("text"));
  }
  const Hdf5Location file = Hdf5Location::open_file(path_);
  EXPECT_THAT(hdf5_error([&] { file.read_doubles("u"); }),
              AllOf(HasSubstr(path_ + ":/u"), HasSubstr("missing")));
  const Hdf5Location train = file.open_group("train");
  EXPECT_EQ(train.describe("u"), path_ + ":/train/u");
  EXPECT_THAT(hdf5_error([&] { train.read_integers("u"); }),
              AllOf(HasSubstr(path_ + ":/train/u"), HasSubstr("missing")));
  EXPECT_THAT(hdf5_error([&] { file.open_group("test"); }), HasSubstr(path_ + ":/test"));
  EXPECT_THAT(hdf5_error([&] { train.string_attribute("absent"); }),
              AllOf(HasSubstr(path_ + ":/train"), HasSubstr("absent")));
  EXPECT_THAT(hdf5_error([&] { train.number_attribute("label"); }),
              AllOf(HasSubstr(path_ + ":/train"), HasSubstr("label")));
}

TEST_F(Hdf5FileTest, duplicate_group_is_an_error) {
  const Hdf5Location file = Hdf5Location::create_file(path_);
  file.create_group("train");
  EXPECT_THAT(hdf5_error([&] { file.create_group("train"); }), HasSubstr(path_ + ":/train"));
}

TEST_F(Hdf5FileTest, opening_a_missing_or_foreign_file_is_an_error_naming_it) {
  EXPECT_THAT(hdf5_error([&] { Hdf5Location::open_file(path_); }), HasSubstr(path_));
  { std::ofstream(path_) << "plain text\n"; }
  EXPECT_THAT(hdf5_error([&] { Hdf5Location::open_file(path_); }), HasSubstr(path_));
  const std::string nowhere = (folder_ / "no" / "file.h5").string();
  EXPECT_THAT(hdf5_error([&] { Hdf5Location::create_file(nowhere); }), HasSubstr(nowhere));
}
