#include "backends/cpu/kernel.h"

namespace trinity {

void RegisterControlFlowOps(KernelRegistry& r) { (void)r; }

}  // namespace trinity
