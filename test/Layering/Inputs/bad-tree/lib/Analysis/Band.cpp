// Analysis is pure math: it may not include a Dialect header.
#include "SdpaDialect/SdpaOps.h"
