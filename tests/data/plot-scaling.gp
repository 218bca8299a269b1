# ptbench plot --kind scaling: cost over the number of threads, compact and spread.
# Written by ptbench with scaling.dat; to draw it again, restyled:
#     gnuplot scaling.gp > scaling.svg
set terminal svg size 960,600 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set xrange [0.666667:6]
set logscale x 2
set logscale y
set xlabel 'threads (one per PU)'
set ylabel 'ns per acquisition or episode (log scale)'
set grid lc rgb '#dddddd'
set key outside right top
# solid: compact order; dashed: spread
plot \
  'scaling.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 dt 1 lc rgb '#0072b2' title "barrier impl=posix, compact", \
  'scaling.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 dt 2 lc rgb '#0072b2' title "barrier impl=posix, spread", \
  'scaling.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 dt 1 lc rgb '#e69f00' title "mutex.contention, compact", \
  'scaling.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 0.6 dt 2 lc rgb '#e69f00' title "mutex.contention, spread"
