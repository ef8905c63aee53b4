// Measurements without a grid (bhpm import): the table's grouping into experiments and its
// refusals, the input file types, the version 2 dataset file's round trip, a version 1
// file read as measurements, and the leaves' data from ragged experiments.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "io/hdf5_file.h"
#include "model/leaf_data.h"
#include "pde/dataset_file.h"
#include "pde/equation.h"
#include "pde/measured_dataset_file.h"
#include "pde/measured_system_file.h"
#include "pde/measurement_sources.h"
#include "pde/measurement_table.h"
#include "pde/periodic_grid.h"
#include "support/error_message.h"
#include "support/text_file.h"

using testing::HasSubstr;

namespace {

bhpm::pde::MeasurementTable read_csv(const std::string& name, const std::string& text) {
  return bhpm::pde::read_measurement_file(bhpm::testing_support::write_text_file(name, text),
                                          bhpm::pde::MeasurementFileType::kCsv, {});
}

/// Three experiments of 4, 2 and 3 points, interleaved, with sigma.
const char* kThreeExperiments =
    "experiment,x,t,u,sigma\n"
    "a,0,0,1,0.1\nb,5,1,2,0.2\na,1,0,3,0.1\nc,0,0,4,0.3\na,0,2,5,0.1\nb,6,3,6,0.2\n"
    "c,1,1,7,0.3\na,1,2,8,0.1\nc,2,0,9,0.3\n";

}  // namespace

TEST(MeasurementTable, groups_rows_into_experiments_in_a_seeded_random_order) {
  const bhpm::pde::MeasurementTable table = read_csv("three.csv", kThreeExperiments);
  EXPECT_EQ(table.experiment_names, (std::vector<std::string>{"a", "b", "c"}));
  const auto experiments = bhpm::pde::group_experiments(table, 7);
  ASSERT_EQ(experiments.size(), 3u);
  EXPECT_EQ(experiments[0].points(), 4);
  EXPECT_EQ(experiments[1].points(), 2);
  EXPECT_EQ(experiments[2].points(), 3);
  // Experiment a's rows, in some order; each row's x, t, u and sigma stay together.
  const auto& a = experiments[0];
  std::vector<double> u(a.u.data_ptr<double>(), a.u.data_ptr<double>() + 4);
  std::sort(u.begin(), u.end());
  EXPECT_EQ(u, (std::vector<double>{1, 3, 5, 8}));
  for (int i = 0; i < 4; ++i) {
    const double ui = a.u[i].item<double>();
    const double expected_x = (ui == 1 || ui == 5) ? 0 : 1, expected_t = ui < 4 ? 0 : 2;
    EXPECT_EQ(a.x[i].item<double>(), expected_x);
    EXPECT_EQ(a.t[i].item<double>(), expected_t);
    EXPECT_EQ(a.sigma[i].item<double>(), 0.1);
  }
  EXPECT_EQ(a.window.x_min, 0);
  EXPECT_EQ(a.window.x_max, 1);
  EXPECT_EQ(a.window.t_max, 2);
  EXPECT_EQ(experiments[1].window.x_min, 5);
  // The same seed gives the same order; the order is a permutation drawn from it.
  const auto again = bhpm::pde::group_experiments(table, 7);
  EXPECT_TRUE(at::equal(again[0].u, a.u));
  bool some_seed_reorders = false;
  for (std::uint64_t seed = 0; seed < 8; ++seed)
    some_seed_reorders |= !at::equal(bhpm::pde::group_experiments(table, seed)[0].u, a.u);
  EXPECT_TRUE(some_seed_reorders);
}

TEST(MeasurementTable, refuses_bad_values_repeats_and_degenerate_experiments) {
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([] {
                group_experiments(read_csv("nan.csv", "experiment,x,t,u\na,0,0,1\na,1,1,nan\n"), 0);
              }),
              HasSubstr("nan.csv: line 3, column 'u': nan is not a measurement (NaN or Inf)"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([] {
                group_experiments(read_csv("inf.csv", "experiment,x,t,u\na,0,inf,1\na,1,1,1\n"), 0);
              }),
              HasSubstr("inf.csv: line 2, column 't'"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([] {
                group_experiments(read_csv("huge.csv", "experiment,x,t,u\na,1e308,0,1\na,1,1,1\n"),
                                  0);
              }),
              HasSubstr("huge.csv: line 2, column 'x': 1e+308 exceeds 1e150 in magnitude"));
  EXPECT_NO_THROW(
      group_experiments(read_csv("large.csv", "experiment,x,t,u\na,1e140,0,-1e140\na,1,1,1\n"), 0));
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::exception>([] {
        group_experiments(
            read_csv("repeat.csv", "experiment,x,t,u\na,0,0,1\nb,0,0,1\na,1,1,2\na,0,0,3\n"), 0);
      }),
      HasSubstr("repeat.csv: experiment 'a': line 2 and line 5 measure the same point (x, t) = "
                "(0, 0)"));
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::exception>([] {
        group_experiments(
            read_csv("flat.csv", "experiment,x,t,u\na,0.5,0,1\na,0.5,1,2\na,0.5,2,2\n"), 0);
      }),
      HasSubstr("flat.csv: experiment 'a': all its 3 points have x = 0.5: zero extent in x"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([] {
                group_experiments(read_csv("instant.csv", "experiment,x,t,u\na,0,3,1\na,1,3,2\n"),
                                  0);
              }),
              HasSubstr("zero extent in t"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([] {
                group_experiments(
                    read_csv("single.csv", "experiment,x,t,u\na,0,0,1\nb,0,0,1\nb,1,1,1\n"), 0);
              }),
              HasSubstr("single.csv: experiment 'a' has 1 point"));
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::exception>([] {
        group_experiments(read_csv("sigma.csv", "experiment,x,t,u,sigma\na,0,0,1,0\na,1,1,1,1\n"),
                          0);
      }),
      HasSubstr("sigma.csv: line 2, column 'sigma': a noise standard deviation must be positive"));
}

TEST(MeasurementSources, refuse_missing_columns_unknown_types_and_absent_arrays) {
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::exception>(
          [] { read_csv("nox.csv", "experiment,position,t,u\na,0,0,1\n"); }),
      HasSubstr("nox.csv: line 1: no column 'x' (the header has: experiment, position, t, u)"));
  bhpm::pde::MeasurementColumns renamed;
  renamed.x = "position";
  EXPECT_EQ(
      bhpm::pde::read_measurement_file(bhpm::testing_support::write_text_file(
                                           "renamed.csv", "experiment,position,t,u\na,0,0,1\n"),
                                       bhpm::pde::MeasurementFileType::kCsv, renamed)
          .x,
      std::vector<double>{0});
  renamed.sigma_required = true;
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([&] {
                bhpm::pde::read_measurement_file(testing::TempDir() + "renamed.csv",
                                                 bhpm::pde::MeasurementFileType::kCsv, renamed);
              }),
              HasSubstr("no column 'sigma'"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [] { bhpm::pde::measurement_file_type("data/sensors.txt", ""); }),
              HasSubstr("data/sensors.txt: unknown file type '.txt' (known: .csv, .npz"));
  EXPECT_EQ(bhpm::pde::measurement_file_type("a.NC", ""), bhpm::pde::MeasurementFileType::kHdf5);
  EXPECT_EQ(bhpm::pde::measurement_file_type("a.txt", "csv"), bhpm::pde::MeasurementFileType::kCsv);

  const std::string path = testing::TempDir() + "arrays.h5";
  {
    const auto file = bhpm::io::Hdf5Location::create_file(path);
    const std::vector<double> values = {0, 1, 2};
    for (const char* name : {"experiment", "x", "t"})
      file.write_array(name, values.data(), {3}, {});
  }
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([&] {
                bhpm::pde::read_measurement_file(path, bhpm::pde::MeasurementFileType::kHdf5, {});
              }),
              HasSubstr("arrays.h5: no array 'u' (name the arrays with --column"));
}

TEST(MeasurementSources, read_hdf5_arrays_with_integer_experiment_ids) {
  const std::string path = testing::TempDir() + "ids.h5";
  {
    const auto file = bhpm::io::Hdf5Location::create_file(path);
    const std::vector<std::int64_t> ids = {3, 3, 1};
    const std::vector<double> x = {0, 1, 2}, t = {0.5, 0.25, 0}, u = {1, 2, 3};
    file.write_array("experiment", ids.data(), {3}, {});
    const auto data = file.create_group("data");
    data.write_array("x", x.data(), {3}, {});
    file.write_array("t", t.data(), {3}, {});
    file.write_array("u", u.data(), {3}, {});
  }
  bhpm::pde::MeasurementColumns columns;
  columns.x = "/data/x";
  const auto table =
      bhpm::pde::read_measurement_file(path, bhpm::pde::MeasurementFileType::kHdf5, columns);
  EXPECT_EQ(table.experiment_names, (std::vector<std::string>{"3", "1"}));
  EXPECT_EQ(table.experiment, (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(table.x, (std::vector<double>{0, 1, 2}));
  EXPECT_TRUE(table.sigma.empty());
  EXPECT_EQ(table.where(2), path + ": row 2");
}

TEST(MeasuredDatasetFile, round_trips_ragged_experiments_with_sigma_and_attributes) {
  auto experiments = bhpm::pde::group_experiments(read_csv("round.csv", kThreeExperiments), 1);
  experiments[0].attributes = {{"units", "m/s"}};
  const std::string path = testing::TempDir() + "measured.h5";
  bhpm::pde::DatasetMetadata metadata;
  metadata.created_by = "test";
  metadata.import_settings = "seed = 1\n";
  bhpm::pde::write_measured_dataset(path, {experiments[0], experiments[1]}, {experiments[2]},
                                    metadata);
  const auto read = bhpm::pde::read_dataset_metadata(path);
  EXPECT_EQ(read.format_version, 2);
  EXPECT_EQ(read.import_settings, "seed = 1\n");
  EXPECT_TRUE(read.equation.empty());
  const auto train = bhpm::pde::read_measured_set(path, "train");
  const auto test = bhpm::pde::read_measured_set(path, "test");
  ASSERT_EQ(train.size(), 2u);
  ASSERT_EQ(test.size(), 1u);
  for (const auto& [got, want] : {std::pair{&train[0], &experiments[0]},
                                  {&train[1], &experiments[1]},
                                  {&test[0], &experiments[2]}}) {
    EXPECT_EQ(got->name, want->name);
    for (const auto& [a, b] : {std::pair{&got->x, &want->x},
                               {&got->t, &want->t},
                               {&got->u, &want->u},
                               {&got->sigma, &want->sigma}})
      EXPECT_TRUE(at::equal(*a, *b));
    EXPECT_EQ(got->window.x_max, want->window.x_max);
    EXPECT_EQ(got->window.t_min, want->window.t_min);
  }
  EXPECT_EQ(train[0].attributes,
            (std::vector<std::pair<std::string, std::string>>{{"units", "m/s"}}));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [&] { bhpm::pde::read_experiment_set(path, "train"); }),
              HasSubstr("measured.h5: measurements only (dataset format_version 2"));
}

TEST(MeasuredSystemFile, groups_two_fields_on_a_plane_and_round_trips_them) {
  bhpm::pde::MeasurementColumns columns;
  columns.y = "y";
  columns.fields = {"p", "q"};
  // Experiment a: 3 points with q = 10 p; b: 2 points.
  const auto table = bhpm::pde::read_measurement_file(
      bhpm::testing_support::write_text_file(
          "plane.csv",
          "experiment,x,y,t,p,q\na,0,0,0,1,10\nb,0,5,0,7,8\na,1,2,0,2,20\nb,1,6,1,7,8\n"
          "a,0,2,1,3,30\n"),
      bhpm::pde::MeasurementFileType::kCsv, columns);
  const bhpm::pde::MeasuredSystemSet set =
      bhpm::pde::group_system_experiments(table, {"p", "q"}, 3);
  ASSERT_EQ(set.experiments.size(), 2u);
  EXPECT_EQ(set.dimensions, 2);
  const auto& a = set.experiments[0];
  ASSERT_EQ(a.u.sizes(), (std::vector<std::int64_t>{3, 2}));
  EXPECT_TRUE(at::equal(a.u.select(1, 1), 10 * a.u.select(1, 0)));  // each row's values together
  EXPECT_TRUE(at::equal(a.y, 2 * a.x.clamp_min(a.t)));              // (0,0,0), (1,2,0), (0,2,1)
  EXPECT_EQ(a.window.y_max, 2.0);
  EXPECT_EQ(set.experiments[1].window.y_min, 5.0);

  const std::string path = testing::TempDir() + "plane.h5";
  bhpm::pde::write_measured_system_dataset(path, {set.fields, 2, {a}}, {set.fields, 2, {}}, "test",
                                           "seed = 3\n");
  const bhpm::pde::MeasuredSystemSet read = bhpm::pde::read_measured_system_set(path, "train");
  EXPECT_EQ(read.fields, set.fields);
  ASSERT_EQ(read.experiments.size(), 1u);
  for (const auto& [got, want] : {std::pair{&read.experiments[0].x, &a.x},
                                  {&read.experiments[0].y, &a.y},
                                  {&read.experiments[0].t, &a.t},
                                  {&read.experiments[0].u, &a.u}})
    EXPECT_TRUE(at::equal(*got, *want));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [&] { bhpm::pde::read_measured_set(path, "train"); }),
              HasSubstr("plane.h5: a system of fields or a 2-D box (dataset format_version 4)"));
  auto outside = a;
  outside.window.y_max = 1.5;
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [&] { bhpm::pde::validate(outside, 2, 2, "here"); }),
              HasSubstr("here: experiment 'a': points lie outside its window in y"));
}

TEST(MeasuredDatasetFile, reads_a_simulated_file_as_its_measured_points) {
  const bhpm::pde::PeriodicGrid grid(0.0, 6.0, 32);
  bhpm::pde::ExperimentSetOptions options;
  options.experiments = 2;
  options.solve.t_end = 0.5;
  options.solve.output_dt = 0.1;
  options.measurements.n_st = 30;
  const auto set = bhpm::pde::simulate_experiment_set(grid, bhpm::pde::make_equation({}), options);
  const std::string path = testing::TempDir() + "simulated.h5";
  bhpm::pde::DatasetMetadata metadata;
  metadata.equation = "u_t = F";
  metadata.config = "seed = 0\n";
  bhpm::pde::write_dataset(path, {set}, metadata);
  const auto measured = bhpm::pde::read_measured_set(path, "train");
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_TRUE(at::equal(measured[1].u, set.sample_u[1]));
  EXPECT_TRUE(at::equal(measured[1].x, set.sample_x[1]));
  EXPECT_FALSE(measured[1].sigma.defined());
  EXPECT_EQ(measured[0].window.x_max, 6.0);  // the periodic grid's window
  EXPECT_EQ(measured[0].window.t_max, 0.5);
}

TEST(LeafData, takes_the_first_points_of_ragged_experiments_each_on_its_window) {
  const auto experiments =
      bhpm::pde::group_experiments(read_csv("ragged.csv", kThreeExperiments), 3);
  EXPECT_EQ(bhpm::model::fewest_points(experiments, 3), 2);
  const auto data = bhpm::model::leaf_data_from_measurements(experiments, 3, 2, "ragged.h5");
  EXPECT_EQ(data.x.sizes(), (std::vector<std::int64_t>{3, 2}));
  EXPECT_TRUE(at::equal(data.u[0], experiments[0].u.slice(0, 0, 2)));
  EXPECT_TRUE(at::equal(data.t[2], experiments[2].t.slice(0, 0, 2)));
  EXPECT_EQ(data.boxes[1].x_min, 5);
  EXPECT_EQ(data.boxes[1].t_max, 3);
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::exception>(
          [&] { bhpm::model::leaf_data_from_measurements(experiments, 3, 3, "ragged.h5"); }),
      HasSubstr("ragged.h5: experiment 'b' has 2 points, fewer than the n_st = 3 each leaf needs"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>([&] {
                bhpm::model::leaf_data_from_measurements(experiments, 4, 2, "ragged.h5");
              }),
              HasSubstr("N = 4 experiments requested, the set holds 3"));
}
