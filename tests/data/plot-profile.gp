# ptbench plot --kind profile: each object's coherence misses per thread, and true against false sharing.
# Written by ptbench with profile.dat; to draw it again, restyled:
#     gnuplot profile.gp > profile.svg
set terminal svg size 1000,616 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set multiplot
set title "tests/profile-radix 1 32: 64-byte lines, quantum 100" offset 12, 0
set tmargin 5
set bmargin 3.5
set yrange [13.5:-0.5] reverse
set grid xtics lc rgb '#dddddd'
set xtics nomirror
set format x '%.0f'
set key outside above center horizontal maxrows 4 font ',9'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("lock (static)" 0)
set ytics add ("globalCnt (static)" 1)
set ytics add ("bar (static)" 2)
set ytics add ("table (static)" 3)
set ytics add ("buffer (static)" 4)
set ytics add ("other (other)" 5)
set ytics add ("_rtld_local (static)" 6)
set ytics add ("flag (static)" 7)
set ytics add ("__nptl_nthreads (static)" 8)
set ytics add ("__nptl_stack_cache_maxsize (static)" 9)
set ytics add ("completed.0 (static)" 10)
set ytics add ("stack of thread 1 (stack)" 11)
set ytics add ("stack of thread 2 (stack)" 12)
set ytics add ("version (static)" 13)
set lmargin at screen 0.26
set rmargin at screen 0.66
set xrange [0:1414]
set xlabel 'coherence misses per thread (solid read, pale write)'
set xtics autofreq
plot 'profile.dat' index 0 using ($2/2):1:($2/2):4 with boxxyerror fs solid 0.9 noborder lc rgb '#0072b2' title 'thread 1', \
    'profile.dat' index 0 using ($2+$3/2):1:($3/2):4 with boxxyerror fs solid 0.35 noborder lc rgb '#0072b2' notitle, \
 'profile.dat' index 1 using ($2/2):1:($2/2):4 with boxxyerror fs solid 0.9 noborder lc rgb '#e69f00' title 'thread 2', \
    'profile.dat' index 1 using ($2+$3/2):1:($3/2):4 with boxxyerror fs solid 0.35 noborder lc rgb '#e69f00' notitle
unset label 1
unset ytics
set title ' '
set lmargin at screen 0.70
set rmargin at screen 0.97
set xrange [0:2827]
set xlabel 'coherence misses'
set xtics autofreq
plot 'profile.dat' index 2 using ($2/2):1:($2/2):(0.4) with boxxyerror fs solid 0.9 noborder lc rgb '#009e73' title 'true sharing', \
    'profile.dat' index 2 using ($2+$3/2):1:($3/2):(0.4) with boxxyerror fs solid 0.9 noborder lc rgb '#d55e00' title 'false sharing'
unset multiplot
