#include "report/figure_writer.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "report/gnuplot.h"

namespace bhpm::report {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDataFolder = "data";

/// Terminal and output shared by every figure: anti-aliased PNG, a sans font (DejaVu Sans
/// with fonts-dejavu-core), text taken literally (no enhanced-text markup, so "u_x" stays
/// u_x), white background.
std::string preamble(const std::string& png, FigureSize size) {
  return "set terminal pngcairo noenhanced size " + std::to_string(size.width) + "," +
         std::to_string(size.height) + " font 'Sans,11' background rgb 'white'\n" + "set output " +
         gnuplot_string(png) + "\n";
}

}  // namespace

FigureWriter::FigureWriter(std::string folder, std::string gnuplot)
    : folder_(std::move(folder)), gnuplot_(std::move(gnuplot)) {
  if (!fs::is_directory(folder_))
    throw std::invalid_argument("figures: folder '" + folder_ + "' does not exist");
  fs::create_directories(fs::path(folder_) / kDataFolder);
}

std::string FigureWriter::data_file(const std::string& name) const {
  return (fs::path(folder_) / kDataFolder / name).string();
}

std::string FigureWriter::data_reference(const std::string& name) {
  return gnuplot_string(std::string(kDataFolder) + "/" + name);
}

std::string FigureWriter::draw(const std::string& stem, FigureSize size,
                               const std::string& commands) {
  if (!drawn_.insert(stem).second)
    throw std::logic_error("figure '" + stem + ".png' would be drawn twice: two inputs map to it");
  const std::string png = stem + ".png";
  const std::string script = std::string(kDataFolder) + "/" + stem + ".gp";
  {
    std::ofstream file(fs::path(folder_) / script);
    file << preamble(png, size) << commands
         << (commands.empty() || commands.back() == '\n' ? "" : "\n");
    if (!file) throw std::runtime_error(folder_ + "/" + script + ": could not be written");
  }
  run_gnuplot(gnuplot_, script, folder_);
  const fs::path drawn = fs::path(folder_) / png;
  if (!fs::is_regular_file(drawn) || fs::file_size(drawn) == 0)
    throw std::runtime_error("gnuplot ran " + script + " but wrote no " + png);
  return png;
}

}  // namespace bhpm::report
