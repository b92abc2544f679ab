# -DCLSA_BENCH_CUDA=ON: the CUDA anchors of clsa-bench (see docs/bench/method.md).
#
# Their sources are never part of this repository: CLSA_ANCHORS_DIR holds the
# release tarballs (libcubwt-1.0.0.tar.gz for the suffix array, libcubwt-1.6.3.tar.gz
# for the BWT; ../shared/anchors/ here, ./.anchors on the device machine). They are
# unpacked and patched in the build folder:
#  - 1.0.0 predates CCCL 3 (CUDA 13): cub::Sum/Max/Min() become
#    cuda::std::plus<>/cuda::maximum<>/cuda::minimum<>() (1.6.3 does this itself);
#  - every cudaMemcpy direction becomes cudaMemcpyDefault, so the same library
#    call also takes managed buffers that live on the device (the "on device"
#    runs; host pointers behave exactly as before);
#  - the exported names get a version prefix (cubwt100_*, cubwt163_*) through
#    compile definitions, so both versions link into one program.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90) # H100/H200; CUDA 13 has no default below sm_75
endif()
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
enable_language(CUDA)

set(CLSA_ANCHORS_DIR "${CMAKE_SOURCE_DIR}/.anchors" CACHE PATH
  "folder with libcubwt-1.0.0.tar.gz and libcubwt-1.6.3.tar.gz (CLSA_BENCH_CUDA)")
# a relative folder is taken from the source folder
get_filename_component(_anc_dir "${CLSA_ANCHORS_DIR}" ABSOLUTE BASE_DIR "${CMAKE_SOURCE_DIR}")
set(_anc_out ${CMAKE_CURRENT_BINARY_DIR}/anchors)

# clsa_anchor_unpack(VERSION PREFIX): unpacks, patches, returns the .cu in _anc_cu.
function(clsa_anchor_unpack version prefix)
  set(tarball ${_anc_dir}/libcubwt-${version}.tar.gz)
  if(NOT EXISTS ${tarball})
    message(FATAL_ERROR "CLSA_BENCH_CUDA: ${tarball} not found (set -DCLSA_ANCHORS_DIR=...)")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${tarball})
  set(src ${_anc_out}/libcubwt-${version})
  file(REMOVE_RECURSE ${src})
  file(ARCHIVE_EXTRACT INPUT ${tarball} DESTINATION ${_anc_out})
  if(NOT EXISTS ${src}/libcubwt.cu)
    message(FATAL_ERROR "CLSA_BENCH_CUDA: ${tarball} has no libcubwt-${version}/libcubwt.cu")
  endif()
  file(READ ${src}/libcubwt.cu code)
  string(REPLACE "cub::Sum()" "cuda::std::plus<>()" code "${code}")
  string(REPLACE "cub::Max()" "cuda::maximum<>()" code "${code}")
  string(REPLACE "cub::Min()" "cuda::minimum<>()" code "${code}")
  string(REPLACE "cudaMemcpyHostToDevice" "cudaMemcpyDefault" code "${code}")
  string(REPLACE "cudaMemcpyDeviceToHost" "cudaMemcpyDefault" code "${code}")
  file(WRITE ${src}/libcubwt.cu "${code}")
  set(defs)
  foreach(fn allocate_device_storage free_device_storage sa isa sa_isa bwt bwt_isa bwt_aux unbwt)
    list(APPEND defs libcubwt_${fn}=${prefix}_${fn})
  endforeach()
  set_source_files_properties(${src}/libcubwt.cu PROPERTIES COMPILE_DEFINITIONS "${defs}")
  set(_anc_cu ${src}/libcubwt.cu PARENT_SCOPE)
endfunction()

clsa_anchor_unpack(1.0.0 cubwt100)
set(_anc_sa ${_anc_cu})
clsa_anchor_unpack(1.6.3 cubwt163)
set(_anc_bwt ${_anc_cu})

add_library(clsa_bench_anchors STATIC ${CMAKE_CURRENT_SOURCE_DIR}/anchors.cu ${_anc_sa} ${_anc_bwt})
# The project's -Wall -Wextra are C flags; nvcc takes its own.
set_property(TARGET clsa_bench_anchors PROPERTY COMPILE_OPTIONS "")
target_include_directories(clsa_bench_anchors PRIVATE ${CMAKE_SOURCE_DIR}/include
  ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(clsa_bench_anchors PRIVATE -O3 -std=c++17 -Xcompiler=-fPIC)
set_target_properties(clsa_bench_anchors PROPERTIES CUDA_STANDARD 17
  CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}" CUDA_RUNTIME_LIBRARY Static)
target_link_libraries(clsa_bench PRIVATE clsa_bench_anchors)
set_target_properties(clsa_bench PROPERTIES LINKER_LANGUAGE CUDA
  CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}" CUDA_RUNTIME_LIBRARY Static)
target_compile_definitions(clsa_bench PRIVATE CLSA_BENCH_CUDA=1)
message(STATUS "clsa-bench: CUDA anchors from ${_anc_dir} (sm ${CMAKE_CUDA_ARCHITECTURES})")
