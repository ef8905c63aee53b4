#include "eval/sweep_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "util/number_format.h"

namespace bhpm::eval {

namespace {

std::string summary_number(double value) {
  return std::isfinite(value) ? util::format_significant(value, 6) : "nan";
}

std::string spread_text(const Spread& s) {
  return summary_number(s.mean) + " +- " + summary_number(s.sd) + " [" + summary_number(s.min) +
         ", " + summary_number(s.max) + "]";
}

std::string spread_csv(const Spread& s) {
  return summary_number(s.mean) + "," + summary_number(s.sd) + "," + summary_number(s.min) + "," +
         summary_number(s.max);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

Spread spread(const std::vector<double>& values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (values.empty()) return {nan, nan, nan, nan};
  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double sd =
      values.size() > 1 ? std::sqrt(squares / static_cast<double>(values.size() - 1)) : 0.0;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return {mean, sd, *low, *high};
}

std::vector<SweepRow> summarize_sweep(const std::vector<SweepMember>& members,
                                      const std::vector<std::string>& values) {
  std::vector<SweepRow> rows;
  for (const std::string& value : values) {
    SweepRow row;
    row.value = value;
    std::vector<double> rmse, mnlp;
    for (const SweepMember& member : members) {
      if (member.value != value) continue;
      ++row.repeats;
      if (!member.finished) continue;
      ++row.finished;
      rmse.push_back(member.rmse);
      mnlp.push_back(member.mean_nlpd);
    }
    row.rmse = spread(rmse);
    row.mean_nlpd = spread(mnlp);
    rows.push_back(row);
  }
  return rows;
}

std::string sweep_table(const std::string& key, const std::vector<SweepRow>& rows) {
  std::size_t width = key.size();
  for (const SweepRow& row : rows) width = std::max(width, row.value.size());
  std::ostringstream out;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %5s  %-50s  %s\n", static_cast<int>(width), key.c_str(),
                "runs", "RMSE mean +- sd [min, max]", "MNLP mean +- sd [min, max]");
  out << line;
  for (const SweepRow& row : rows) {
    const std::string runs = std::to_string(row.finished) + "/" + std::to_string(row.repeats);
    std::snprintf(line, sizeof line, "%-*s  %5s  %-50s  %s\n", static_cast<int>(width),
                  row.value.c_str(), runs.c_str(), spread_text(row.rmse).c_str(),
                  spread_text(row.mean_nlpd).c_str());
    out << line;
  }
  return out.str();
}

std::string sweep_members_csv(const std::string& key, const std::vector<SweepMember>& members) {
  std::ostringstream out;
  out << csv_field(key) << ",repeat,seed,finished,rmse,mean_nlpd,median_nlpd,coverage_95,run_dir\n";
  for (const SweepMember& m : members) {
    out << csv_field(m.value) << "," << m.repeat << "," << m.seed << "," << (m.finished ? 1 : 0);
    if (m.finished)
      out << "," << summary_number(m.rmse) << "," << summary_number(m.mean_nlpd) << ","
          << summary_number(m.median_nlpd) << "," << summary_number(m.coverage_95);
    else
      out << ",,,,";
    out << "," << csv_field(m.run_dir) << "\n";
  }
  return out.str();
}

std::string sweep_summary_csv(const std::string& key, const std::vector<SweepRow>& rows) {
  std::ostringstream out;
  out << csv_field(key) << ",finished,repeats,rmse_mean,rmse_sd,rmse_min,rmse_max,"
      << "mnlp_mean,mnlp_sd,mnlp_min,mnlp_max\n";
  for (const SweepRow& row : rows)
    out << csv_field(row.value) << "," << row.finished << "," << row.repeats << ","
        << spread_csv(row.rmse) << "," << spread_csv(row.mean_nlpd) << "\n";
  return out.str();
}

}  // namespace bhpm::eval
