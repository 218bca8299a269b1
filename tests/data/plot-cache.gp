# ptbench plot --kind cache: load latency over the working set, cache levels marked.
# Written by ptbench with cache.dat; to draw it again, restyled:
#     gnuplot cache.gp > cache.svg
set terminal svg size 960,560 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set logscale xy
set xlabel 'working set (log scale)'
set ylabel 'ns per load (log scale)'
set grid lc rgb '#dddddd'
set key top left
# solid lines: levels found in the curve; dashed: hwloc's data caches
set arrow from 40000, graph 0 to 40000, graph 1 nohead lc rgb '#0072b2' dt 1
set label 'L1 measured: 39.06 KiB' at 40000, graph 1 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set arrow from 600000, graph 0 to 600000, graph 1 nohead lc rgb '#0072b2' dt 1
set label 'L2 measured: 585.9 KiB' at 600000, graph 1 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set arrow from 9e+06, graph 0 to 9e+06, graph 1 nohead lc rgb '#0072b2' dt 1
set label 'L3 measured: 8.583 MiB' at 9e+06, graph 1 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set arrow from 49152, graph 0 to 49152, graph 1 nohead lc rgb '#0072b2' dt 2
set label 'L1 hwloc: 48 KiB' at 49152, graph 0.35 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set arrow from 1.04858e+06, graph 0 to 1.04858e+06, graph 1 nohead lc rgb '#0072b2' dt 2
set label 'L2 hwloc: 1 MiB' at 1.04858e+06, graph 0.35 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set arrow from 3.35544e+07, graph 0 to 3.35544e+07, graph 1 nohead lc rgb '#0072b2' dt 2
set label 'L3 hwloc: 32 MiB' at 3.35544e+07, graph 0.35 rotate by 90 right offset -0.5,-0.5 font ',8' tc rgb '#0072b2'
set xrange [2730.67:1.00663e+08]
set xtics ('1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144, '1 MiB' 1.04858e+06, '4 MiB' 4.1943e+06, '16 MiB' 1.67772e+07, '64 MiB' 6.71089e+07, '256 MiB' 2.68435e+08)
plot \
  'cache.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 lc rgb '#0072b2' title "fixture"
