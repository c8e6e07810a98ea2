// corpus-source: github.com/vtsynergy/OpenDwarfs/blob/13fe644de4ea219b0c561dfa856df7474db33faf/sparse-linear-algebra/SPMV/src/spmv_kernel.cl (LGPL-2.1, see LICENSE)
// corpus-run: csr --global=1024 --local=128 --arg=1000 --arg=1001:iota --arg=1000:0..999 --arg=1000 --arg=1000 --arg=1000
// corpus-note: Ap is iota (one non-zero per row), column indices Aj in 0..999; rows past num_rows=1000 return
/*
 */

void __kernel csr(const unsigned int num_rows,
                       __global unsigned int * Ap, 
                       __global unsigned int * Aj, 
                       __global float * Ax, 
                       __global float * x, 
                       __global float * y)
{
  	unsigned int row = get_global_id(0);
	
    if(row < num_rows)
    {     
        float sum = y[row];
        
        const unsigned int row_start = Ap[row];      	
       	const unsigned int row_end = Ap[row+1];
        
        unsigned int jj = 0;
        for (jj = row_start; jj < row_end; jj++)
            sum += Ax[jj] * x[Aj[jj]];      

        y[row] = sum;
    }
}
