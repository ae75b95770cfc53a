# Fails when the committed python/sdpa/schema_tables.py is not what the
# schema prints (PRINTER), naming the command that refreshes it.
execute_process(COMMAND ${PRINTER} OUTPUT_VARIABLE printed RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PRINTER} failed (${rc})")
endif()
file(READ ${COMMITTED} committed)
if(NOT printed STREQUAL committed)
  message(FATAL_ERROR "python/sdpa/schema_tables.py differs from the schema's "
                      "tables; run `ninja sdpa-python-schema-update`.\nThe schema "
                      "prints:\n${printed}")
endif()
