// The output folder of a run (--out): it holds one run's consistent set of outputs, or none, never a mix of two
// runs' and never an earlier run's outputs while a later run is under way.
//
// Contract: open() creates --out when needed and a fresh staging folder inside it (.broadcheck-partial-XXXXXX), and
// removes from --out every output an earlier run left there (kOutputFiles; other files stay), so that a run that
// ends before commit() (killed, a full disk) leaves no report that looks current. The run writes every output in
// the staging folder (path(name)). commit() moves each file of the staging folder into --out (one rename each),
// removes from --out every output name this run did not write, and removes the staging folder. abandon(), and the
// destructor of a folder never committed, remove the staging folder with what is in it: a run that cannot write
// its outputs (ENOSPC) leaves nothing half-written behind to fill the disk. Failures are returned as text naming
// the path and the system's reason, never thrown: an unwritable --out is the user's input (exit 2).
#pragma once

#include <string>
#include <vector>

namespace bc {

// Every file a run may write into --out.
const std::vector<std::string>& output_file_names();

class OutputFolder {
 public:
  OutputFolder() = default;
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();  // abandon()

  // Whether open() removes an earlier run's outputs at once, or leaves that to commit() (`broadcheck merge`, whose
  // inputs may be in --out, until it has read them).
  enum class Earlier { remove, keep };
  // "" when `out` and its staging folder are ready, else why not ("DIR: cannot create the output folder: ...").
  std::string open(const std::string& out, Earlier earlier = Earlier::remove);
  std::string path(const std::string& name) const;  // the file `name` in the staging folder
  const std::string& staging() const { return staging_; }
  // "" when the outputs are in place, else the reason (the staging folder is then left as it is).
  std::string commit();
  void abandon();  // removes the staging folder and everything in it (nothing once committed)

 private:
  std::string out_, staging_;
};

}  // namespace bc
