// A conversion may not use a pipeline.
#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Pipelines/Pipelines.h"
