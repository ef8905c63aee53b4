#include "report/distillation_figure.h"

#include <cmath>
#include <string>
#include <vector>

#include "eval/distillation_file.h"
#include "report/gnuplot.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

/// The terms worth a bar: kept by some sample, or true.
std::vector<std::size_t> shown_terms(const eval::DistillationFile& file) {
  std::vector<std::size_t> shown;
  for (std::size_t j = 0; j < file.terms.size(); ++j) {
    const eval::DistilledTerm& term = file.terms[j];
    if (term.inclusion > 0 || (std::isfinite(term.truth) && std::abs(term.truth) > 1e-8))
      shown.push_back(j);
  }
  return shown;
}

/// gnuplot's `set xtics ("u*u_x" 0, "u_xx" 1, ...)` for the shown terms.
std::string term_tics(const eval::DistillationFile& file, const std::vector<std::size_t>& shown) {
  std::string tics = "set xtics rotate by -30 (";
  for (std::size_t i = 0; i < shown.size(); ++i)
    tics += std::string(i ? ", " : "") + gnuplot_string(file.terms[shown[i]].name) + " " +
            std::to_string(i);
  return tics + ")\nset xrange [-0.6:" + util::format_significant(shown.size() - 0.4, 6) + "]\n";
}

}  // namespace

Figure draw_distillation_figure(FigureWriter& writer, const std::string& path) {
  return draw_distillation_figure(writer, eval::read_distillation_file(path), "distill",
                                  "Distilled equation");
}

Figure draw_distillation_figure(FigureWriter& writer, const eval::DistillationFile& file,
                                const std::string& name, const std::string& title) {
  const std::vector<std::size_t> shown = shown_terms(file);
  Columns inclusion(2), intervals(4), truth(2);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const eval::DistilledTerm& term = file.terms[shown[i]];
    inclusion[0].push_back(static_cast<double>(i));
    inclusion[1].push_back(term.inclusion);
    if (!term.kept() || term.median == 0) continue;
    // Deviation from the median in % of |median|: intervals of terms of any size compare.
    const auto percent = [&term](double value) {
      return 100.0 * (value - term.median) / std::abs(term.median);
    };
    intervals[0].push_back(static_cast<double>(i));
    intervals[1].push_back(0.0);
    intervals[2].push_back(percent(term.lower));
    intervals[3].push_back(percent(term.upper));
    if (!std::isfinite(term.truth)) continue;
    truth[0].push_back(static_cast<double>(i));
    truth[1].push_back(percent(term.truth));
  }
  if (inclusion[0].empty()) inclusion = {{0.0}, {0.0}};  // no sample kept a term
  write_column_blocks(writer.data_file(name + "-inclusion.dat"), {inclusion});
  std::string commands = multiplot_commands(1, 2, "distilled equation: " + file.equation) +
                         "set grid\n" + term_tics(file, shown) +
                         "set title 'inclusion probability (fraction of samples keeping the "
                         "term)'\nset yrange [0:1.05]\nset style fill solid 0.6\nset boxwidth 0.6\n"
                         "set key bottom right box opaque\n"
                         "plot " +
                         FigureWriter::data_reference(name + "-inclusion.dat") +
                         " using 1:2 with boxes lc 1 notitle, 0.5 with lines dt 2 lc 8 "
                         "title 'kept above 1/2'\n";
  if (!intervals[0].empty()) {
    write_column_blocks(writer.data_file(name + "-intervals.dat"), {intervals});
    commands +=
        "set title 'kept terms: 95 % interval and truth, relative to the median'\n"
        "set ylabel '(coefficient - median) / |median| (%)'\nset autoscale y\n"
        "set offsets 0, 0, graph 0.05, graph 0.05\n"
        "set key top right box opaque\nplot " +
        FigureWriter::data_reference(name + "-intervals.dat") +
        " using 1:2:3:4 with yerrorbars pt 7 lw 2 lc 1 title 'median and 95 % interval'";
    if (!truth[0].empty()) {
      write_column_blocks(writer.data_file(name + "-truth.dat"), {truth});
      commands += ", " + FigureWriter::data_reference(name + "-truth.dat") +
                  " using 1:2 with points pt 2 ps 2 lw 2 lc 7 title 'truth'";
    }
    commands += "\n";
  }
  commands += "unset multiplot\n";
  return {writer.draw(name, {1400, 620}, commands), title,
          "The learned operator as an equation (`bhpm distill`): each operator sample fitted by "
          "sparse regression on monomials of (u, u_x, ...). Left: how often each term is kept; "
          "the printed equation keeps those above 1/2. Right: each kept term's 95 % interval as "
          "a deviation from its median in % of the median; a cross marks the true coefficient "
          "where the data's equation is known (outside the bar: the interval misses it). "
          "Explained: " +
              util::format_percent(file.explained) + " of the posterior mean's variance" +
              (file.warning ? " (too little to read it as the learned physics)" : "") +
              (file.weak_equation.empty()
                   ? std::string(".")
                   : ". In weak form, on the training leaves' u alone (derivatives moved onto "
                     "test functions, so a leaf's shrunk derivatives do not bias it): " +
                         file.weak_equation + ".")};
}

}  // namespace bhpm::report
